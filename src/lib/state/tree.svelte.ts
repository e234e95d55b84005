import { isApiError, type FeedTree } from '$lib/api';
import { countsFrom, NO_COUNTS, withFeedDelta, type UnreadCounts } from './counts';
import { session } from './session.svelte';

/** The feed tree and its unread counters (one getCounters call for all of them). */
class TreeState {
	#tree = $state<FeedTree | undefined>();
	#counts = $state<UnreadCounts>(NO_COUNTS);
	#error = $state<string | undefined>();
	#loading = $state(false);

	get tree(): FeedTree | undefined {
		return this.#tree;
	}

	get counts(): UnreadCounts {
		return this.#counts;
	}

	get error(): string | undefined {
		return this.#error;
	}

	get loading(): boolean {
		return this.#loading;
	}

	unread(feedId: number, isCat = false): number {
		const map = isCat ? this.#counts.categories : this.#counts.feeds;
		return map.get(feedId) ?? 0;
	}

	async load(): Promise<void> {
		this.#loading = true;
		try {
			const client = session.client;
			const [tree, counters] = await Promise.all([client.loadFeedTree(), client.getCounters()]);
			this.#tree = tree;
			this.#counts = countsFrom(counters);
			this.#error = undefined;
		} catch (error) {
			this.#error = errorMessage(error);
		} finally {
			this.#loading = false;
		}
	}

	async refreshCounters(): Promise<void> {
		try {
			this.#counts = countsFrom(await session.client.getCounters());
		} catch (error) {
			this.#error = errorMessage(error);
		}
	}

	/** Applies a local change at once (e.g. an article read), before the server confirms it. */
	adjust(feedId: number | null, delta: number): void {
		if (feedId === null) return;
		this.#counts = withFeedDelta(this.#counts, feedId, delta);
	}

	reset(): void {
		this.#tree = undefined;
		this.#counts = NO_COUNTS;
		this.#error = undefined;
	}
}

function errorMessage(error: unknown): string {
	return isApiError(error) ? error.userMessage : 'Something went wrong while loading your feeds.';
}

export const treeState = new TreeState();
