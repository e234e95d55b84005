import {
	serverUnreachable,
	viewModeKeeps,
	type FeedId,
	type Headline,
	type SearchMode,
	type ViewMode,
	type ViewModeRow
} from '$lib/api';
import { afterFirstScreen, firstScreenShown, takeEarlyList } from '$lib/boot/early-reads';
import {
	cachedList,
	cachedRows,
	FIRST_SCREEN_ROWS,
	storeList,
	type CachedList,
	type ListKey
} from '$lib/cache';
import { withQueuedChanges } from '$lib/outbox/outbox';
import { markOnce } from '$lib/perf/marks';
import { searchOnDevice, type LocalResults } from '$lib/search/page';
import { searchTarget } from '$lib/search/scope';
import { feedPrefs } from './feed-prefs.svelte';
import { mergeTop, topIsEnough } from './list-merge';
import { errorMessage, treeState } from './tree.svelte';
import { session } from './session.svelte';
import type { SettingsValues } from './settings.svelte';
import type { ListKind } from '../../params/kind';
import { onAccountEvent } from '$lib/db/account-events';

/** Named once, by the route's matcher. */
export type { ListKind } from '../../params/kind';

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
/**
 * The first page of a list with nothing on screen yet: several screens of rows, a quarter of the
 * server's usual page. On the test bed it answers in about half the time (~30 ms, 35 KB instead
 * of ~70 ms, 124 KB), and the first headline waits for it; the rest follows as the reader scrolls.
 */
export const FIRST_PAGE = 50;

/** A refresh asks for at most this many pages to place new rows among the loaded ones. */
const MERGE_PAGES = 8;

export function feedIdOf(query: Pick<ListQuery, 'kind' | 'id'>): FeedId {
	return query.kind === 'tag' ? query.id : Number(query.id);
}

/**
 * The list a route shows before any search: in the view mode and order chosen for that list
 * (feed-prefs.svelte.ts), else in the reader's defaults (`values`).
 */
export function listQueryFor(
	kind: ListKind,
	id: string,
	defaults: Pick<SettingsValues, 'viewMode' | 'sortOrder'>
): ListQuery {
	const values = feedPrefs.viewOf(kind, id, defaults);
	return {
		kind,
		id,
		viewMode: values.viewMode,
		orderBy: values.sortOrder === 'default' ? '' : values.sortOrder,
		search: '',
		searchMode: 'this_feed'
	};
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

/**
 * What a list asks the server for: a search's scope is sent as the feed or category it looks
 * through (search/scope.ts), never as `search_mode`, which the 2021 server ignores.
 */
const targetOf = (query: ListQuery): Pick<ListQuery, 'kind' | 'id'> =>
	query.search ? searchTarget(query, treeState.tree) : query;

const sameQuery = (a: ListQuery | undefined, b: ListQuery): boolean =>
	!!a && JSON.stringify(a) === JSON.stringify(b);

const isOffline = (): boolean => typeof navigator !== 'undefined' && navigator.onLine === false;

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
	/** The rows are a search of the articles cached on this device, not the server's answer. */
	#onDevice = $state(false);
	/** The server answered this list (or failed to), or the device's search did: past the cache. */
	#answered = $state(false);
	#local: LocalResults | undefined;
	#firstId: number | undefined;
	/**
	 * The rows the server's view keeps (unread ones, say), as its first page showed; undefined when
	 * it keeps all. A row read here leaves that list on the server: the next page's `skip` counts
	 * only the loaded rows it still lists, as tt-rss's own web UI does (Headlines.loadMore), or the
	 * next page would start that many rows late and the rows skipped would never be shown.
	 */
	#serverKeeps: ((row: ViewModeRow) => boolean) | undefined;
	/** Bumped on every new query, so a late reply for an older one is dropped. */
	#generation = 0;
	/** When the reader last changed each row here (`patch`), for `patchRead`. */
	#changedAt = new Map<number, number>();

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

	/** True while the list shows a search answered from this device (offline, server unreachable). */
	get onDevice(): boolean {
		return this.#onDevice;
	}

	/** False while the rows shown are only the cache's (a start's resume waits for the server's). */
	get answered(): boolean {
		return this.#answered;
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
		this.#serverKeeps = undefined;
		this.#onDevice = false;
		this.#answered = false;
		this.#local = undefined;
		if (query.search && isOffline()) {
			await this.#searchOnDevice(generation);
			return;
		}
		const key = listKey(query);
		const early = takeEarlyList(key);
		const cachedShown = this.#showCached(generation, key, early);
		if (early) {
			// The list an app start opens on: its cached rows first, then the server. (Asking at
			// once would make the server's work, on the reader's own machine in a small setup,
			// compete with the first paint; the answer has to wait for that paint anyway.)
			await cachedShown;
			if (generation !== this.#generation) return;
			await this.#fetch(0, { replace: true });
			return;
		}
		// Any other list (after sign-in, or picked in the tree): the first page is asked for at
		// once, and its answer applied once whatever the cache had is on screen.
		await this.#fetch(0, { replace: true, applyAfter: cachedShown });
	}

	async #showCached(
		generation: number,
		key: ListKey,
		early: Promise<CachedList | undefined> | undefined
	): Promise<void> {
		const cached = await (early ?? cachedList(key, { first: FIRST_SCREEN_ROWS }));
		markOnce('headlines:cache-read');
		if (cached && generation === this.#generation && this.#items.length === 0) {
			const shown = cached.headlines;
			this.#items = shown;
			this.#complete = cached.complete;
			markOnce('headlines:cache-shown');
			if (cached.rest.length > 0) void this.#showCachedRest(generation, shown, cached);
			firstScreenShown();
			await afterFirstScreen();
		}
	}

	/** The cached rows after the first screen, unless the server's answer replaced them first. */
	async #showCachedRest(generation: number, shown: Headline[], cached: CachedList): Promise<void> {
		const rows = await cachedRows(cached.rest);
		if (generation !== this.#generation || this.#items !== shown) return;
		const known = new Set(shown.map((h) => h.id));
		this.#items = [...shown, ...rows.filter((h) => !known.has(h.id))];
		this.#complete = cached.completeWithRest && rows.length === cached.rest.length;
	}

	/** The next page, when the reader nears the end of the list. */
	async loadMore(): Promise<void> {
		if (this.#loading || this.#complete || !this.#query || this.#error) return;
		if (this.#local) {
			await this.#moreOnDevice(this.#local);
			return;
		}
		const keeps = this.#serverKeeps;
		const skip = keeps ? this.#items.filter(keeps).length : this.#items.length;
		await this.#fetch(skip, { replace: false, at: this.#items.length });
	}

	/**
	 * Brings the list up to date in place: rows that arrived go where the server's order puts
	 * them, and the pages loaded below stay (list-merge.ts says why new rows cannot simply go on
	 * top). In the server's default order a first request asks only for articles with higher ids
	 * (`since_id`): nothing new, nothing more. `full` and `forceUpdate` load the first page anew.
	 */
	async refresh(options: { full?: boolean; forceUpdate?: boolean } = {}): Promise<void> {
		const query = this.#query;
		if (!query) return;
		if (this.#onDevice) {
			// Back online: the server's answer replaces the device's; still offline: search again.
			if (isOffline()) await this.#searchOnDevice(this.#generation);
			else await this.#fetch(0, { replace: true });
			return;
		}
		if (options.full || options.forceUpdate || this.#items.length === 0) {
			await this.#fetch(0, { replace: true, forceUpdate: options.forceUpdate });
			return;
		}
		await this.#refreshInPlace(query);
	}

	async #refreshInPlace(query: ListQuery): Promise<void> {
		const askedAt = Date.now();
		const generation = this.#generation;
		const current = () => generation === this.#generation;
		this.#loading = true;
		this.#error = undefined;
		try {
			const client = session.client;
			const { headlineLimit } = await client.detectCapabilities();
			// New rows have higher ids: in the server's default order one cheap request finds them
			// all (unless more arrived than one answer holds), and says whether anything did.
			let arrived: Set<number> | undefined;
			let firstLimit = Math.min(headlineLimit, Math.max(FIRST_PAGE, this.#items.length));
			if (query.orderBy === '') {
				const sinceId = this.#items.reduce((max, h) => Math.max(max, h.id), 0);
				const answer = await this.#ask(query, { skip: 0, limit: headlineLimit, sinceId });
				if (!current()) return;
				const loaded = new Set(this.#items.map((h) => h.id));
				const fresh = answer.headlines.map((h) => h.id).filter((id) => !loaded.has(id));
				if (fresh.length === 0) return;
				if (answer.headlines.length < headlineLimit) {
					arrived = new Set(fresh);
					firstLimit = Math.min(headlineLimit, FIRST_PAGE + fresh.length);
				}
			}
			const listed = this.#serverKeeps;
			const top: Headline[] = [];
			let firstId: number | undefined;
			let ended = false;
			for (let n = 0; n < MERGE_PAGES; n++) {
				const limit = n === 0 ? firstLimit : headlineLimit;
				const result = await this.#ask(query, { skip: top.length, limit, checkFirstId: firstId });
				if (!current()) return;
				if (result.header?.firstIdChanged) {
					await this.#fetch(0, { replace: true });
					return;
				}
				if (n === 0) firstId = result.header?.firstId;
				top.push(...result.headlines);
				ended = result.headlines.length < limit;
				if (ended || topIsEnough(this.#items, top, { arrived, listed })) break;
			}
			const rows = await withQueuedChanges(top, askedAt);
			if (!current()) return;
			this.#items = mergeTop(this.#items, rows);
			this.#firstId = firstId;
			// The server's whole list is here; or rows may have arrived below the loaded ones (an
			// order of the reader's, say oldest first): the end of the list asks again.
			if (ended) this.#complete = true;
			else if (!arrived) this.#complete = false;
			await storeList(listKey(query), 0, this.#items, this.#complete, askedAt);
		} catch (error) {
			if (current()) this.#error = errorMessage(error);
		} finally {
			if (current()) {
				this.#loading = false;
				this.#answered = true;
			}
		}
	}

	/** One `getHeadlines` request for the open list (its search scope, view mode and order). */
	async #ask(
		query: ListQuery,
		page: {
			skip: number;
			limit: number;
			sinceId?: number;
			forceUpdate?: boolean;
			checkFirstId?: number;
		}
	) {
		const client = session.client;
		const caps = await client.detectCapabilities();
		const target = targetOf(query);
		return client.getHeadlines({
			feedId: feedIdOf(target),
			isCat: target.kind === 'cat',
			includeNested: target.kind === 'cat',
			limit: page.limit,
			skip: page.skip,
			sinceId: page.sinceId,
			viewMode: query.viewMode,
			orderBy: query.orderBy || undefined,
			showExcerpt: true,
			excerptLength: EXCERPT_LENGTH,
			includeAttachments: true,
			hasSandbox: true,
			sanitize: true,
			forceUpdate: page.forceUpdate,
			search: query.search || undefined,
			includeHeader: caps.includeHeader,
			checkFirstId: page.skip > 0 ? page.checkFirstId : undefined
		});
	}

	async #fetch(
		skip: number,
		options: {
			replace: boolean;
			forceUpdate?: boolean;
			/** The page's place in the loaded rows (the cache's), when it is not `skip`. */
			at?: number;
			/** The answer (or failure) is taken only after this settles. */
			applyAfter?: Promise<void>;
		}
	): Promise<void> {
		const query = this.#query;
		if (!query) return;
		const generation = this.#generation;
		this.#loading = true;
		this.#error = undefined;
		try {
			const askedAt = Date.now();
			const caps = await session.client.detectCapabilities();
			const pageSize =
				skip === 0 && this.#items.length === 0
					? Math.min(FIRST_PAGE, caps.headlineLimit)
					: caps.headlineLimit;
			const result = await this.#ask(query, {
				skip,
				limit: pageSize,
				forceUpdate: options.forceUpdate,
				checkFirstId: this.#firstId
			}).finally(() => options.applyAfter);
			if (generation !== this.#generation) return;
			if (result.header?.firstIdChanged) {
				// New articles arrived at the top while paging: start again from the top.
				await this.#fetch(0, { replace: true });
				return;
			}
			if (skip === 0) this.#firstId = result.header?.firstId;
			if (options.replace) {
				// Judged from the server's own answer (before changes still queued here).
				const keeps = viewModeKeeps(query.viewMode, {
					feedId: feedIdOf(targetOf(query)),
					searching: !!query.search,
					anyUnread: true
				});
				const rows = result.headlines;
				this.#serverKeeps = keeps && rows.length > 0 && rows.every(keeps) ? keeps : undefined;
			}
			// A change not sent yet (held for an Undo, or offline), or sent after the request, stays
			// on screen.
			const page = await withQueuedChanges(result.headlines, askedAt);
			if (generation !== this.#generation) return;
			this.#onDevice = false;
			this.#local = undefined;
			const complete = page.length < pageSize;
			if (options.replace) {
				this.#items = page;
			} else {
				const known = new Set(this.#items.map((h) => h.id));
				const fresh = page.filter((h) => !known.has(h.id));
				// Nothing new (rows read here that the server lists till the change reaches it): the
				// same rows again would ask for the same page again at once.
				if (fresh.length > 0) this.#items = [...this.#items, ...fresh];
			}
			this.#complete = complete;
			await storeList(listKey(query), options.at ?? skip, page, complete, askedAt);
		} catch (error) {
			if (generation !== this.#generation) return;
			if (query.search && skip === 0 && serverUnreachable(error)) {
				// The search box still answers: from the articles kept on this device.
				await this.#searchOnDevice(generation);
				return;
			}
			this.#error = errorMessage(error);
		} finally {
			if (generation === this.#generation) {
				this.#loading = false;
				this.#answered = true;
			}
			// A start that found nothing cached paints the server's first page (or its error).
			if (skip === 0) firstScreenShown();
		}
	}

	/** Answers the open search from the local index, scoped like the server's search. */
	async #searchOnDevice(generation: number): Promise<void> {
		const query = this.#query;
		if (!query) return;
		this.#loading = true;
		this.#error = undefined;
		try {
			// The device's scope rules load with the first search here, not with the first screen.
			const { localScope } = await import('$lib/search/local-scope');
			const results = await searchOnDevice({
				query: query.search,
				...localScope(query, treeState.tree)
			});
			const rows = await results.next(FIRST_PAGE);
			if (generation !== this.#generation) return;
			this.#local = results;
			this.#onDevice = true;
			this.#items = rows;
			this.#complete = results.done;
		} catch (error) {
			if (generation === this.#generation) this.#error = errorMessage(error);
		} finally {
			if (generation === this.#generation) {
				this.#loading = false;
				this.#answered = true;
			}
			firstScreenShown();
		}
	}

	async #moreOnDevice(results: LocalResults): Promise<void> {
		const generation = this.#generation;
		this.#loading = true;
		try {
			const rows = await results.next(FIRST_PAGE);
			if (generation !== this.#generation || results !== this.#local) return;
			const known = new Set(this.#items.map((h) => h.id));
			this.#items = [...this.#items, ...rows.filter((h) => !known.has(h.id))];
			this.#complete = results.done;
		} catch (error) {
			if (generation === this.#generation) this.#error = errorMessage(error);
		} finally {
			if (generation === this.#generation) this.#loading = false;
		}
	}

	/** Applies the reader's change to the loaded rows with these ids. */
	patch(ids: readonly number[], patch: ArticlePatch): void {
		const at = Date.now();
		for (const id of ids) this.#changedAt.set(id, at);
		const wanted = new Set(ids);
		this.#items = this.#items.map((h) => (wanted.has(h.id) ? { ...h, ...patch } : h));
	}

	/**
	 * Applies stored or server state read at `readAt` to the loaded rows it names, except rows the
	 * reader changed since: the read does not know that change (a sync's rows read from the cache
	 * while the reader opened an article would mark it unread again on screen).
	 */
	patchRead(rows: readonly (ArticlePatch & { id: number })[], readAt: number): void {
		const wanted = new Map(
			rows
				.filter((row) => (this.#changedAt.get(row.id) ?? -Infinity) < readAt)
				.map((row) => [row.id, pickPatch(row)])
		);
		if (wanted.size === 0) return;
		this.#items = this.#items.map((h) => {
			const patch = wanted.get(h.id);
			return patch ? { ...h, ...patch } : h;
		});
	}

	/** Test and sign-out hook. */
	reset(): void {
		this.#generation++;
		this.#query = undefined;
		this.#items = [];
		this.#complete = false;
		this.#loading = false;
		this.#error = undefined;
		this.#onDevice = false;
		this.#answered = false;
		this.#local = undefined;
		this.#serverKeeps = undefined;
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
onAccountEvent(() => headlines.reset());
