import type { FeedId, Headline, SearchMode, ViewMode } from '$lib/api';
import { cachedList, storeList, type ListKey } from '$lib/cache';
import { markOnce } from '$lib/perf/marks';
import { errorMessage } from './tree.svelte';
import { session } from './session.svelte';

export type ListKind = 'feed' | 'cat' | 'tag';

/** What the headline pane shows: one feed, category or tag, filtered and sorted. */
export interface ListQuery {
	kind: ListKind;
	id: string;
	viewMode: ViewMode;
	/** '' = the server's default order. */
	orderBy: string;
	search: string;
	searchMode: SearchMode;
}

/** The fields an action can change on an article, applied to every copy the app shows. */
export type ArticlePatch = Partial<
	Pick<Headline, 'unread' | 'marked' | 'published' | 'note' | 'labels'>
>;

export const EXCERPT_LENGTH = 200;

export function feedIdOf(query: Pick<ListQuery, 'kind' | 'id'>): FeedId {
	return query.kind === 'tag' ? query.id : Number(query.id);
}

export function listKey(query: ListQuery): ListKey {
	return {
		feedId: feedIdOf(query),
		isCat: query.kind === 'cat',
		viewMode: query.viewMode,
		orderBy: query.orderBy,
		search: query.search ? `${query.searchMode}:${query.search}` : ''
	};
}

const sameQuery = (a: ListQuery | undefined, b: ListQuery): boolean =>
	!!a && JSON.stringify(a) === JSON.stringify(b);

/**
 * The open headline list, paged with `skip` (page size = the server's headline limit). Loaded
 * rows are kept in a plain array that is replaced on change: 10 000 rows stay cheap to update.
 */
class HeadlineList {
	#query = $state.raw<ListQuery | undefined>();
	#items = $state.raw<Headline[]>([]);
	#complete = $state(false);
	#loading = $state(false);
	#error = $state<string | undefined>();
	#firstId: number | undefined;
	/** Bumped on every new query, so a late reply for an older one is dropped. */
	#generation = 0;

	get query(): ListQuery | undefined {
		return this.#query;
	}

	get items(): Headline[] {
		return this.#items;
	}

	get complete(): boolean {
		return this.#complete;
	}

	get loading(): boolean {
		return this.#loading;
	}

	get error(): string | undefined {
		return this.#error;
	}

	indexOf(articleId: number): number {
		return this.#items.findIndex((h) => h.id === articleId);
	}

	find(articleId: number): Headline | undefined {
		return this.#items.find((h) => h.id === articleId);
	}

	/** Shows a list: cached rows at once, then the first page from the server. */
	async open(query: ListQuery): Promise<void> {
		if (sameQuery(this.#query, query)) return;
		const generation = ++this.#generation;
		this.#query = query;
		this.#items = [];
		this.#complete = false;
		this.#error = undefined;
		this.#firstId = undefined;
		const cached = await cachedList(listKey(query));
		markOnce('headlines:cache-read');
		if (cached && generation === this.#generation && this.#items.length === 0) {
			this.#items = cached.headlines;
			this.#complete = cached.complete;
			markOnce('headlines:cache-shown');
		}
		await this.#fetch(0, { replace: true });
	}

	/** The next page, when the reader nears the end of the list. */
	async loadMore(): Promise<void> {
		if (this.#loading || this.#complete || !this.#query || this.#error) return;
		await this.#fetch(this.#items.length, { replace: false });
	}

	/**
	 * Reloads the list. In the server's default order (newest first) only articles newer than the
	 * newest one shown are asked for (`since_id`), unless `full` is set.
	 */
	async refresh(options: { full?: boolean; forceUpdate?: boolean } = {}): Promise<void> {
		const query = this.#query;
		if (!query) return;
		const newest = this.#items.reduce((max, h) => Math.max(max, h.id), 0);
		if (!options.full && !options.forceUpdate && query.orderBy === '' && newest > 0) {
			await this.#fetch(0, { replace: false, sinceId: newest });
			return;
		}
		await this.#fetch(0, { replace: true, forceUpdate: options.forceUpdate });
	}

	async #fetch(
		skip: number,
		options: { replace: boolean; sinceId?: number; forceUpdate?: boolean }
	): Promise<void> {
		const query = this.#query;
		if (!query) return;
		const generation = this.#generation;
		this.#loading = true;
		this.#error = undefined;
		try {
			const client = session.client;
			const caps = await client.detectCapabilities();
			const pageSize = caps.headlineLimit;
			const result = await client.getHeadlines({
				feedId: feedIdOf(query),
				isCat: query.kind === 'cat',
				includeNested: query.kind === 'cat',
				limit: pageSize,
				skip: options.sinceId === undefined ? skip : 0,
				sinceId: options.sinceId,
				viewMode: query.viewMode,
				orderBy: query.orderBy || undefined,
				showExcerpt: true,
				excerptLength: EXCERPT_LENGTH,
				includeAttachments: true,
				hasSandbox: true,
				sanitize: true,
				forceUpdate: options.forceUpdate,
				search: query.search || undefined,
				searchMode: query.search ? query.searchMode : undefined,
				includeHeader: caps.includeHeader,
				checkFirstId: skip > 0 ? this.#firstId : undefined
			});
			if (generation !== this.#generation) return;
			if (result.header?.firstIdChanged) {
				// New articles arrived at the top while paging: start again from the top.
				await this.#fetch(0, { replace: true });
				return;
			}
			if (skip === 0 && options.sinceId === undefined) this.#firstId = result.header?.firstId;
			const page = result.headlines;
			if (options.sinceId !== undefined) {
				const known = new Set(this.#items.map((h) => h.id));
				const fresh = page.filter((h) => !known.has(h.id));
				this.#items = [...fresh, ...this.#items];
				await storeList(listKey(query), 0, this.#items, this.#complete);
				return;
			}
			const complete = page.length < pageSize;
			if (options.replace) {
				this.#items = page;
			} else {
				const known = new Set(this.#items.map((h) => h.id));
				this.#items = [...this.#items, ...page.filter((h) => !known.has(h.id))];
			}
			this.#complete = complete;
			await storeList(listKey(query), skip, page, complete);
		} catch (error) {
			if (generation === this.#generation) this.#error = errorMessage(error);
		} finally {
			if (generation === this.#generation) this.#loading = false;
		}
	}

	/** Applies a change to the loaded rows with these ids. */
	patch(ids: readonly number[], patch: ArticlePatch): void {
		const wanted = new Set(ids);
		this.#items = this.#items.map((h) => (wanted.has(h.id) ? { ...h, ...patch } : h));
	}

	/** Test and sign-out hook. */
	reset(): void {
		this.#generation++;
		this.#query = undefined;
		this.#items = [];
		this.#complete = false;
		this.#loading = false;
		this.#error = undefined;
	}
}

export function pickPatch(h: ArticlePatch): ArticlePatch {
	return {
		unread: h.unread,
		marked: h.marked,
		published: h.published,
		note: h.note,
		labels: h.labels
	};
}

export const headlines = new HeadlineList();
