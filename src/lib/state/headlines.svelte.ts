import { serverUnreachable, type Headline } from '$lib/api';
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
import { isDeviceList, readOnDevice, type OnDeviceReason } from './device-search';
import { FIRST_PAGE, listKey, sameQuery, type ArticlePatch, type ListQuery } from './list-query';
import { ServerPaging } from './list-paging';
import {
	keepChangedSince,
	noteChanged,
	patchReadRows,
	patchRowsEach,
	withNewRows,
	type ChangedAt
} from './list-patches';
import { mergeTop } from './list-merge';
import { errorMessage, treeState } from './tree.svelte';
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

export type { OnDeviceReason } from './device-search';

const isOffline = (): boolean => typeof navigator !== 'undefined' && navigator.onLine === false;

/**
 * The open headline list: the cache's rows first, then the server's pages (list-paging.ts), or
 * the device's own answer (a search offline, Today). Loaded rows are kept in a plain array that
 * is replaced on change: 10 000 rows stay cheap to update.
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
	/** The server's pages of the open list. */
	#paging = new ServerPaging();
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
		this.#paging.reset();
		this.#onDevice = undefined;
		this.#answered = false;
		this.#local = undefined;
		this.#readSince = undefined;
		if (isDeviceList(query) || (query.search && isOffline())) {
			await this.#fromDevice(generation);
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
		await this.#fetch(this.#paging.nextSkip(this.#items), {
			replace: false,
			at: this.#items.length
		});
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
		if (isDeviceList(query)) {
			await this.#fromDevice(this.#generation);
			return;
		}
		if (this.#onDevice) {
			// Back online: the server's answer replaces the device's; still offline: search again.
			if (isOffline()) await this.#fromDevice(this.#generation);
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
			const read = await this.#paging.top(query, () => this.#items, current);
			if (!read || read.type === 'unchanged') return;
			if (read.type === 'restart') {
				await this.#fetch(0, { replace: true });
				return;
			}
			const rows = await withQueuedChanges(read.rows, askedAt);
			if (!current()) return;
			this.#items = mergeTop(this.#items, this.#readOver(rows, askedAt));
			this.#tookRead(askedAt, false);
			this.#paging.tookTop(read);
			// The server's whole list is here; or rows may have arrived below the loaded ones (an
			// order of the reader's, say oldest first): the end of the list asks again.
			if (read.ended) this.#complete = true;
			else if (!read.arrived) this.#complete = false;
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

	/**
	 * The cards density shows the image tt-rss names only with an article's body: a list loaded
	 * in another density loads its first page again, with the bodies (the list's layout calls it
	 * when the reader picks cards).
	 */
	async loadBodies(): Promise<void> {
		if (this.#paging.takeLacksBodies()) await this.refresh({ full: true });
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
			const read = await this.#paging.page(
				query,
				skip,
				{
					loaded: () => this.#items.length,
					replace: options.replace,
					forceUpdate: options.forceUpdate,
					applyAfter: options.applyAfter
				},
				() => generation === this.#generation
			);
			if (!read) return;
			if (read.type === 'restart') {
				await this.#fetch(0, { replace: true });
				return;
			}
			// A change not sent yet (held for an Undo, or offline), or sent after the request, stays
			// on screen.
			const page = await withQueuedChanges(read.rows, askedAt);
			if (generation !== this.#generation) return;
			// What goes on screen; the cache takes the page itself (its writes apply the outbox).
			const shown = this.#readOver(page, askedAt);
			this.#onDevice = undefined;
			this.#local = undefined;
			const complete = page.length < read.pageSize;
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
				await this.#fromDevice(generation);
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

	/**
	 * Answers the open list on this device (device-search.ts): a search from the local index,
	 * scoped like the server's, or a device feed's cached rows. Its failure is shown in the
	 * reader's words, the list answered after (unless another list opened meanwhile), the first
	 * screen painted either way.
	 */
	async #fromDevice(generation: number): Promise<void> {
		const query = this.#query;
		if (!query) return;
		this.#loading = true;
		this.#error = undefined;
		try {
			const read = await readOnDevice(query, treeState.tree);
			if (generation !== this.#generation) return;
			this.#local = read.results;
			this.#onDevice = read.reason;
			this.#items = read.rows;
			this.#readSince = undefined;
			this.#complete = read.complete;
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
		this.#paging.reset();
		this.#readSince = undefined;
		this.#changedAt.clear();
	}
}

export const headlines = new HeadlineList();
onAccountEvent(() => headlines.reset());
