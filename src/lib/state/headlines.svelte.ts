import {
	isDeviceFeed,
	serverUnreachable,
	viewModeKeeps,
	type Headline,
	type ViewModeRow
} from '$lib/api';
import {
	afterFirstScreen,
	firstScreenShown,
	listOpening,
	takeEarlyList
} from '$lib/boot/early-reads';
import {
	cachedList,
	cachedRows,
	FIRST_SCREEN_ROWS,
	type CachedList,
	type ListKey
} from '$lib/cache';
import { storeList } from './cache-writes';
import { withQueuedChanges } from '$lib/outbox/outbox';
import { markOnce } from '$lib/perf/marks';
import type { LocalResults } from '$lib/search/page';
import { deviceFeedRows, firstOnDevice } from './device-search';
import {
	FIRST_PAGE,
	feedIdOf,
	headlinesParams,
	listKey,
	sameQuery,
	targetOf,
	type ArticlePatch,
	type HeadlinesPage,
	type ListQuery
} from './list-query';
import {
	keepChangedSince,
	noteChanged,
	patchReadRows,
	patchRowsEach,
	withNewRows,
	type ChangedAt
} from './list-patches';
import { mergeTop, topIsEnough } from './list-merge';
import { errorMessage, treeState } from './tree.svelte';
import { session } from './session.svelte';
import { settings } from './settings.svelte';
import { onAccountEvent } from '$lib/db/account-events';

// The list's query and its patches are named here too: the screens take them from this module.
export {
	EXCERPT_LENGTH,
	FIRST_PAGE,
	feedIdOf,
	listKey,
	listQueryAt,
	listQueryFor,
	type ArticlePatch,
	type ListKind,
	type ListQuery
} from './list-query';
export { pickPatch } from './list-patches';

/** A refresh asks for at most this many pages to place new rows among the loaded ones. */
const MERGE_PAGES = 8;

/** A list of a feed only this device has (Today): never asked of the server. */
/** Why a search was answered on this device: the server out of reach, or a device feed's list. */
export type OnDeviceReason = 'unreachable' | 'device-feed';

const isDevice = (query: ListQuery): boolean =>
	query.kind === 'feed' && isDeviceFeed(Number(query.id));

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
	/**
	 * The rows are a search of the articles cached on this device, not the server's answer, and why:
	 * the server could not answer (offline, out of reach), or the list is one only this device has
	 * (Today), whose search is always the device's, online too.
	 */
	#onDevice = $state<OnDeviceReason | undefined>();
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
	/**
	 * When the reader last changed each field of an article here (`patchEach`, also for an article
	 * open without its row): a read begun before that change must not undo it (`readOver`).
	 */
	#changedAt: ChangedAt = new Map();
	/**
	 * When the oldest read of the rows shown was asked for (the server's answer, or the cached
	 * list's): a change the reader made before it may not be in the list (`readSince`).
	 */
	#readSince: number | undefined;
	/** Says the list being opened has its first rows on screen (boot/early-reads.ts `listOpening`). */
	#opening: (() => void) | undefined;

	get query(): ListQuery | undefined {
		return this.#query;
	}

	get items(): Headline[] {
		return this.#items;
	}

	get complete(): boolean {
		return this.#complete;
	}

	/**
	 * When the oldest read that made up the rows shown was asked for; undefined for a list the
	 * device made (a search of the cache, Today) or none yet. A catch-up spares what the reader
	 * marked unread since that the list does not show (outbox/unread-not-listed.ts).
	 */
	get readSince(): number | undefined {
		return this.#readSince;
	}

	/** Takes a read asked at `askedAt` into the rows shown (`readSince`). */
	#tookRead(askedAt: number, replace: boolean): void {
		this.#readSince =
			replace || this.#readSince === undefined ? askedAt : Math.min(this.#readSince, askedAt);
	}

	get loading(): boolean {
		return this.#loading;
	}

	get error(): string | undefined {
		return this.#error;
	}

	/** True while the list shows a search answered from this device. */
	get onDevice(): boolean {
		return this.#onDevice !== undefined;
	}

	/** Why the search shown was answered on this device (the banner says it), if it was. */
	get onDeviceReason(): OnDeviceReason | undefined {
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
		this.#onDevice = undefined;
		this.#answered = false;
		this.#local = undefined;
		this.#readSince = undefined;
		if (query.search && (isOffline() || isDevice(query))) {
			await this.#searchOnDevice(generation);
			return;
		}
		if (isDevice(query)) {
			await this.#deviceFeed(generation);
			return;
		}
		const key = listKey(query);
		const shown = listOpening();
		this.#opening = shown;
		try {
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
		} finally {
			shown();
		}
	}

	/** Says the open list's first rows are on screen (cached, or the server's first page). */
	#rowsShown(): void {
		firstScreenShown();
		this.#opening?.();
		this.#opening = undefined;
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
			this.#tookRead(cached.fetchedAt, true);
			markOnce('headlines:cache-shown');
			if (cached.rest.length > 0) void this.#showCachedRest(generation, shown, cached);
			this.#rowsShown();
			await afterFirstScreen();
		}
	}

	/** The cached rows after the first screen, unless the server's answer replaced them first. */
	async #showCachedRest(generation: number, shown: Headline[], cached: CachedList): Promise<void> {
		const rows = await cachedRows(cached.rest);
		if (generation !== this.#generation || this.#items !== shown) return;
		this.#items = withNewRows(shown, rows);
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
		if (isDevice(query)) {
			if (query.search) await this.#searchOnDevice(this.#generation);
			else await this.#deviceFeed(this.#generation);
			return;
		}
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
			const client = await session.api();
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
			this.#items = mergeTop(this.#items, this.#readOver(rows, askedAt));
			this.#tookRead(askedAt, false);
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

	/** Whether rows were asked for without their bodies, so without tt-rss's image for a card. */
	#lacksBodies = false;

	/**
	 * The cards density shows the image tt-rss names only with an article's body: a list loaded
	 * in another density loads its first page again, with the bodies (the list's layout calls it
	 * when the reader picks cards).
	 */
	async loadBodies(): Promise<void> {
		if (!this.#lacksBodies) return;
		this.#lacksBodies = false;
		await this.refresh({ full: true });
	}

	/** One `getHeadlines` request for the open list (its search scope, view mode and order). */
	async #ask(query: ListQuery, page: HeadlinesPage) {
		const client = await session.api();
		const caps = await client.detectCapabilities();
		const withBodies = settings.values.density === 'cards';
		if (!withBodies) this.#lacksBodies = true;
		return client.getHeadlines(headlinesParams(query, page, caps, treeState.tree, withBodies));
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
			const caps = await (await session.api()).detectCapabilities();
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
					feedId: feedIdOf(targetOf(query, treeState.tree)),
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
			// What goes on screen; the cache takes the page itself (its writes apply the outbox).
			const shown = this.#readOver(page, askedAt);
			this.#onDevice = undefined;
			this.#local = undefined;
			const complete = page.length < pageSize;
			this.#tookRead(askedAt, options.replace);
			if (options.replace) {
				this.#items = shown;
			} else {
				const known = new Set(this.#items.map((h) => h.id));
				const fresh = shown.filter((h) => !known.has(h.id));
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
			if (skip === 0) this.#rowsShown();
		}
	}

	/** Answers the open search from the local index, scoped like the server's search. */
	async #searchOnDevice(generation: number): Promise<void> {
		const query = this.#query;
		if (!query) return;
		await this.#fromDevice(generation, async () => {
			const { results, rows } = await firstOnDevice(query, treeState.tree);
			if (generation !== this.#generation) return;
			this.#local = results;
			this.#onDevice = isDevice(query) ? 'device-feed' : 'unreachable';
			this.#items = rows;
			this.#readSince = undefined;
			this.#complete = results.done;
		});
	}

	/** A feed only this device has (Today): every cached row it covers, at once, online too. */
	async #deviceFeed(generation: number): Promise<void> {
		const query = this.#query;
		if (!query) return;
		await this.#fromDevice(generation, async () => {
			const rows = await deviceFeedRows(query, treeState.tree);
			if (generation !== this.#generation) return;
			this.#items = rows;
			this.#readSince = undefined;
			this.#complete = true;
		});
	}

	/**
	 * Loads the list from this device's copy: its failure shown in the reader's words, the list
	 * answered after (unless another list opened meanwhile), the first screen painted either way.
	 */
	async #fromDevice(generation: number, load: () => Promise<void>): Promise<void> {
		this.#loading = true;
		this.#error = undefined;
		try {
			await load();
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
			this.#items = withNewRows(this.#items, rows);
			this.#complete = results.done;
		} catch (error) {
			if (generation === this.#generation) this.#error = errorMessage(error);
		} finally {
			if (generation === this.#generation) this.#loading = false;
		}
	}

	/** Applies the reader's change to the loaded rows with these ids. */
	patch(ids: readonly number[], patch: ArticlePatch): void {
		this.patchEach(ids.map((id) => ({ id, patch })));
	}

	/** Applies the reader's changes, each to the loaded row with its id, in one pass. */
	patchEach(changes: readonly { id: number; patch: ArticlePatch }[]): void {
		if (changes.length === 0) return;
		noteChanged(this.#changedAt, changes, Date.now());
		this.#items = patchRowsEach(this.#items, changes);
	}

	/**
	 * Applies stored or server state read at `readAt` to the loaded rows it names, as the reader's
	 * changes leave it: those queued, being queued or confirmed since (`withQueuedChanges`: a
	 * sync's rows read from the cache before the outbox write of the article the reader just opened
	 * would mark it unread again on screen), and those made here since (`readOver`).
	 */
	async patchRead(rows: readonly Headline[], readAt: number): Promise<void> {
		const read = await withQueuedChanges(rows, readAt);
		this.#items = patchReadRows(this.#items, read, this.#changedAt, readAt);
	}

	/**
	 * Rows read at `readAt` (and the queued changes applied over them, `withQueuedChanges`) as
	 * they go on screen: a field the reader changed here since keeps its value on screen. Called in
	 * the task that shows them, after the last await: a change made before that is in the rows
	 * shown, which it reads.
	 */
	#readOver(rows: readonly Headline[], readAt: number): Headline[] {
		if (!rows.some((row) => this.#changedAt.has(row.id))) return [...rows];
		const shown = new Map(this.#items.map((h) => [h.id, h]));
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

	/** Test and sign-out hook. */
	reset(): void {
		this.#generation++;
		this.#query = undefined;
		this.#items = [];
		this.#complete = false;
		this.#loading = false;
		this.#error = undefined;
		this.#onDevice = undefined;
		this.#answered = false;
		this.#local = undefined;
		this.#serverKeeps = undefined;
		this.#readSince = undefined;
		this.#changedAt.clear();
	}
}

export const headlines = new HeadlineList();
onAccountEvent(() => headlines.reset());
