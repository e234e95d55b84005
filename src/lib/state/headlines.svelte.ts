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
} from '$lib/cache/cache-reads';
import { storeList } from './cache-writes';
import { withQueuedChanges } from '$lib/outbox/outbox';
import { markOnce } from '$lib/perf/marks';
import type { LocalResults } from '$lib/search/page-search';
import { isDeviceList, readOnDevice } from './device-search';
import { FIRST_PAGE, listKey, sameQuery, type ListQuery } from './list-query';
import { ServerPaging } from './list-paging';
import { withNewRows } from './list-patches';
import { mergeTop } from './list-merge';
import { ShownList } from './shown-list.svelte';
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
class HeadlineList extends ShownList {
	#local: LocalResults | undefined;
	/** The server's pages of the open list. */
	#paging = new ServerPaging();
	/** Bumped on every new query, so a late reply for an older one is dropped. */
	#generation = 0;
	/** Says the list being opened has its first rows on screen (boot/early-reads.ts `listOpening`). */
	#opening: (() => void) | undefined;

	/** Shows a list: cached rows at once, then the first page from the server. */
	async open(query: ListQuery): Promise<void> {
		if (sameQuery(this.shownQuery, query)) return;
		const generation = ++this.#generation;
		this.shownQuery = query;
		this.rows = [];
		this.isComplete = false;
		this.errorText = undefined;
		this.#paging.reset();
		this.deviceReason = undefined;
		this.wasAnswered = false;
		this.#local = undefined;
		this.oldestRead = undefined;
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
		if (cached && generation === this.#generation && this.rows.length === 0) {
			const shown = cached.headlines;
			this.rows = shown;
			this.isComplete = cached.complete;
			this.tookRead(cached.fetchedAt, true);
			markOnce('headlines:cache-shown');
			if (cached.rest.length > 0) void this.#showCachedRest(generation, shown, cached);
			this.#rowsShown();
			await afterFirstScreen();
		}
	}

	/** The cached rows after the first screen, unless the server's answer replaced them first. */
	async #showCachedRest(generation: number, shown: Headline[], cached: CachedList): Promise<void> {
		const rows = await cachedRows(cached.rest);
		if (generation !== this.#generation || this.rows !== shown) return;
		this.rows = withNewRows(shown, rows);
		this.isComplete = cached.completeWithRest && rows.length === cached.rest.length;
	}

	/** The next page, when the reader nears the end of the list. */
	async loadMore(): Promise<void> {
		if (this.isLoading || this.isComplete || !this.shownQuery || this.errorText) return;
		if (this.#local) {
			await this.#moreOnDevice(this.#local);
			return;
		}
		await this.#fetch(this.#paging.nextSkip(this.rows), {
			replace: false,
			at: this.rows.length
		});
	}

	/**
	 * Brings the list up to date in place: rows that arrived go where the server's order puts
	 * them, and the pages loaded below stay (list-merge.ts says why new rows cannot simply go on
	 * top). In the server's default order a first request asks only for articles with higher ids
	 * (`since_id`): nothing new, nothing more. `full` and `forceUpdate` load the first page anew.
	 */
	async refresh(options: { full?: boolean; forceUpdate?: boolean } = {}): Promise<void> {
		const query = this.shownQuery;
		if (!query) return;
		if (isDeviceList(query)) {
			await this.#fromDevice(this.#generation);
			return;
		}
		if (this.deviceReason) {
			// Back online: the server's answer replaces the device's; still offline: search again.
			if (isOffline()) await this.#fromDevice(this.#generation);
			else await this.#fetch(0, { replace: true });
			return;
		}
		if (options.full || options.forceUpdate || this.rows.length === 0) {
			await this.#fetch(0, { replace: true, forceUpdate: options.forceUpdate });
			return;
		}
		await this.#refreshInPlace(query);
	}

	async #refreshInPlace(query: ListQuery): Promise<void> {
		const askedAt = Date.now();
		const generation = this.#generation;
		const current = () => generation === this.#generation;
		this.isLoading = true;
		this.errorText = undefined;
		try {
			const read = await this.#paging.top(query, () => this.rows, current);
			if (!read || read.type === 'unchanged') return;
			if (read.type === 'restart') {
				await this.#fetch(0, { replace: true });
				return;
			}
			const rows = await withQueuedChanges(read.rows, askedAt);
			if (!current()) return;
			this.rows = mergeTop(this.rows, this.readOver(rows, askedAt));
			this.tookRead(askedAt, false);
			this.#paging.tookTop(read);
			// The server's whole list is here; or rows may have arrived below the loaded ones (an
			// order of the reader's, say oldest first): the end of the list asks again.
			if (read.ended) this.isComplete = true;
			else if (!read.arrived) this.isComplete = false;
			await storeList(listKey(query), 0, this.rows, this.isComplete, askedAt);
		} catch (error) {
			if (current()) this.errorText = errorMessage(error);
		} finally {
			if (current()) {
				this.isLoading = false;
				this.wasAnswered = true;
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
		const query = this.shownQuery;
		if (!query) return;
		const generation = this.#generation;
		this.isLoading = true;
		this.errorText = undefined;
		try {
			const askedAt = Date.now();
			const read = await this.#paging.page(
				query,
				skip,
				{
					loaded: () => this.rows.length,
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
			const shown = this.readOver(page, askedAt);
			this.deviceReason = undefined;
			this.#local = undefined;
			const complete = page.length < read.pageSize;
			this.tookRead(askedAt, options.replace);
			if (options.replace) {
				this.rows = shown;
			} else {
				const known = new Set(this.rows.map((h) => h.id));
				const fresh = shown.filter((h) => !known.has(h.id));
				// Nothing new (rows read here that the server lists till the change reaches it): the
				// same rows again would ask for the same page again at once.
				if (fresh.length > 0) this.rows = [...this.rows, ...fresh];
			}
			this.isComplete = complete;
			await storeList(listKey(query), options.at ?? skip, page, complete, askedAt);
		} catch (error) {
			if (generation !== this.#generation) return;
			if (query.search && skip === 0 && serverUnreachable(error)) {
				// The search box still answers: from the articles kept on this device.
				await this.#fromDevice(generation);
				return;
			}
			this.errorText = errorMessage(error);
		} finally {
			if (generation === this.#generation) {
				this.isLoading = false;
				this.wasAnswered = true;
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
		const query = this.shownQuery;
		if (!query) return;
		this.isLoading = true;
		this.errorText = undefined;
		try {
			const read = await readOnDevice(query, treeState.tree);
			if (generation !== this.#generation) return;
			this.#local = read.results;
			this.deviceReason = read.reason;
			this.rows = read.rows;
			this.oldestRead = undefined;
			this.isComplete = read.complete;
		} catch (error) {
			if (generation === this.#generation) this.errorText = errorMessage(error);
		} finally {
			if (generation === this.#generation) {
				this.isLoading = false;
				this.wasAnswered = true;
			}
			firstScreenShown();
		}
	}

	async #moreOnDevice(results: LocalResults): Promise<void> {
		const generation = this.#generation;
		this.isLoading = true;
		try {
			const rows = await results.next(FIRST_PAGE);
			if (generation !== this.#generation || results !== this.#local) return;
			this.rows = withNewRows(this.rows, rows);
			this.isComplete = results.done;
		} catch (error) {
			if (generation === this.#generation) this.errorText = errorMessage(error);
		} finally {
			if (generation === this.#generation) this.isLoading = false;
		}
	}

	/** Test and sign-out hook. */
	reset(): void {
		this.#generation++;
		this.clearShown();
		this.#local = undefined;
		this.#paging.reset();
	}
}

export const headlines = new HeadlineList();
onAccountEvent(() => headlines.reset());
