import type { Headline } from '$lib/api';
import type { OnDeviceReason } from './device-search';
import type { ArticlePatch, ListQuery } from './list-query';
import {
	keepChangedSince,
	noteChanged,
	patchReadRows,
	patchRowsEach,
	type ChangedAt
} from './list-patches';
import { withQueuedChanges } from '$lib/outbox/outbox';

/**
 * What the open headline list shows, and the reader's changes on it: the query, the rows, whether
 * they are all, loading or failed, answered by the server or the device, and how old the reads
 * behind them are; a change the reader makes here (`patchEach`) and a read taken over the rows
 * (`patchRead`, `readOver`) keep each other's fields right. How the list is loaded (the cache
 * first, the server's pages, the device's answer) is state/headlines.svelte.ts's `HeadlineList`,
 * which extends this.
 */
export class ShownList {
	protected shownQuery = $state.raw<ListQuery | undefined>();
	protected rows = $state.raw<Headline[]>([]);
	protected isComplete = $state(false);
	protected isLoading = $state(false);
	protected errorText = $state<string | undefined>();
	/**
	 * The rows are a search of the articles cached on this device, not the server's answer, and why:
	 * the server could not answer (offline, out of reach), or the list is one only this device has
	 * (Today), whose search is always the device's, online too.
	 */
	protected deviceReason = $state<OnDeviceReason | undefined>();
	/** The server answered this list (or failed to), or the device's search did: past the cache. */
	protected wasAnswered = $state(false);
	/**
	 * When the reader last changed each field of an article here (`patchEach`, also for an article
	 * open without its row): a read begun before that change must not undo it (`readOver`).
	 */
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered
	#changedAt: ChangedAt = new Map();
	/**
	 * When the oldest read of the rows shown was asked for (the server's answer, or the cached
	 * list's): a change the reader made before it may not be in the list (`readSince`).
	 */
	protected oldestRead: number | undefined;
	get query(): ListQuery | undefined {
		return this.shownQuery;
	}

	get items(): Headline[] {
		return this.rows;
	}

	get complete(): boolean {
		return this.isComplete;
	}

	/**
	 * When the oldest read that made up the rows shown was asked for; undefined for a list the
	 * device made (a search of the cache, Today) or none yet. A catch-up spares what the reader
	 * marked unread since that the list does not show (outbox/unread-not-listed.ts).
	 */
	get readSince(): number | undefined {
		return this.oldestRead;
	}

	/** Takes a read asked at `askedAt` into the rows shown (`readSince`). */
	protected tookRead(askedAt: number, replace: boolean): void {
		this.oldestRead =
			replace || this.oldestRead === undefined ? askedAt : Math.min(this.oldestRead, askedAt);
	}

	get loading(): boolean {
		return this.isLoading;
	}

	get error(): string | undefined {
		return this.errorText;
	}

	/** True while the list shows a search answered from this device. */
	get onDevice(): boolean {
		return this.deviceReason !== undefined;
	}

	/** Why the search shown was answered on this device (the banner says it), if it was. */
	get onDeviceReason(): OnDeviceReason | undefined {
		return this.deviceReason;
	}

	/** False while the rows shown are only the cache's (a start's resume waits for the server's). */
	get answered(): boolean {
		return this.wasAnswered;
	}

	indexOf(articleId: number): number {
		return this.rows.findIndex((h) => h.id === articleId);
	}

	find(articleId: number): Headline | undefined {
		return this.rows.find((h) => h.id === articleId);
	}

	/** Applies the reader's change to the loaded rows with these ids. */
	patch(ids: readonly number[], patch: ArticlePatch): void {
		this.patchEach(ids.map((id) => ({ id, patch })));
	}

	/** Applies the reader's changes, each to the loaded row with its id, in one pass. */
	patchEach(changes: readonly { id: number; patch: ArticlePatch }[]): void {
		if (changes.length === 0) return;
		noteChanged(this.#changedAt, changes, Date.now());
		this.rows = patchRowsEach(this.rows, changes);
	}

	/**
	 * Applies stored or server state read at `readAt` to the loaded rows it names, as the reader's
	 * changes leave it: those queued, being queued or confirmed since (`withQueuedChanges`: a
	 * sync's rows read from the cache before the outbox write of the article the reader just opened
	 * would mark it unread again on screen), and those made here since (`readOver`).
	 */
	async patchRead(rows: readonly Headline[], readAt: number): Promise<void> {
		const read = await withQueuedChanges(rows, readAt);
		this.rows = patchReadRows(this.rows, read, this.#changedAt, readAt);
	}

	/**
	 * Rows read at `readAt` (and the queued changes applied over them, `withQueuedChanges`) as
	 * they go on screen: a field the reader changed here since keeps its value on screen. Called in
	 * the task that shows them, after the last await: a change made before that is in the rows
	 * shown, which it reads.
	 */
	protected readOver(rows: readonly Headline[], readAt: number): Headline[] {
		if (!rows.some((row) => this.#changedAt.has(row.id))) return [...rows];
		// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local, never rendered
		const shown = new Map(this.rows.map((h) => [h.id, h]));
		return rows.map((row) => keepChangedSince(row, shown.get(row.id), this.#changedAt, readAt));
	}

	/**
	 * An article read at `readAt` (an opened article's `getArticle`) as the reader's changes made
	 * here since leave it: their fields as `shown` has them (`keepChangedSince`).
	 */
	readArticleOver<T extends ArticlePatch & { id: number }>(
		article: T,
		shown: ArticlePatch | undefined,
		readAt: number
	): T {
		return keepChangedSince(article, shown, this.#changedAt, readAt);
	}

	/** Forgets what is shown and the reader's changes (a new query keeps the changes). */
	protected clearShown(): void {
		this.shownQuery = undefined;
		this.rows = [];
		this.isComplete = false;
		this.isLoading = false;
		this.errorText = undefined;
		this.deviceReason = undefined;
		this.wasAnswered = false;
		this.oldestRead = undefined;
		this.#changedAt.clear();
	}
}
