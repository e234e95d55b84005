/**
 * The open list's server paging (state/headlines.svelte.ts shows what it reads): one
 * `getHeadlines` request per page, sized by the server's headline limit; where the next page
 * starts when the server's view drops rows read here; a restart from the top when new articles
 * arrived there while paging (`check_first_id`); and a refresh's read of the list's top, where new
 * rows go among the loaded ones (list-merge.ts). Each read returns what it found; the list applies
 * it. A read whose list was replaced meanwhile (`current()` false) returns nothing. The reads
 * themselves (list-paging-reads.ts) load at the list's first read of the server, after the first
 * screen drew the cache's rows: here only what they remember between them.
 */
import type { Headline, ViewModeRow } from '$lib/api';
import { lazyModule } from '$lib/perf/lazy';

/** A page of the list, or new articles at its top: the list starts again from there. */
export type PageRead = { type: 'restart' } | { type: 'page'; rows: Headline[]; pageSize: number };

/** A refresh's read of the list's top: nothing new, start again, or the top rows to merge. */
export type TopRead =
	| { type: 'unchanged' }
	| { type: 'restart' }
	| {
			type: 'top';
			rows: Headline[];
			/** The server's list ends within these rows. */
			ended: boolean;
			/** The new rows, when one request found them all (the list's end stays as it was). */
			arrived: Set<number> | undefined;
			/** The first page's first id, for the next pages' `check_first_id`. */
			firstId: number | undefined;
	  };

/** What the paging remembers between reads (list-paging-reads.ts reads and sets it). */
export interface PagingState {
	/** The first id of the list's first page: a later page asks the server whether it still is. */
	firstId: number | undefined;
	/**
	 * The rows the server's view keeps (unread ones, say), as its first page showed; undefined when
	 * it keeps all. A row read here leaves that list on the server: the next page's `skip` counts
	 * only the loaded rows it still lists, as tt-rss's own web UI does (Headlines.loadMore), or the
	 * next page would start that many rows late and the rows skipped would never be shown.
	 */
	serverKeeps: ((row: ViewModeRow) => boolean) | undefined;
	/** Whether rows were asked for without their bodies, so without tt-rss's image for a card. */
	lacksBodies: boolean;
}

type Reads = typeof import('./list-paging-reads');
/** A read's arguments after the paging's state. */
type AfterState<F> = F extends (state: PagingState, ...rest: infer A) => unknown ? A : never;
const reads = lazyModule((): Promise<Reads> => import('./list-paging-reads'));

export class ServerPaging {
	readonly #state: PagingState = { firstId: undefined, serverKeeps: undefined, lacksBodies: false };

	/** A new list (or none): the last one's first id and view say nothing of it. */
	reset(): void {
		this.#state.firstId = undefined;
		this.#state.serverKeeps = undefined;
	}

	/** Where the page after the loaded rows starts on the server. */
	nextSkip(loaded: readonly Headline[]): number {
		const keeps = this.#state.serverKeeps;
		return keeps ? loaded.filter(keeps).length : loaded.length;
	}

	/**
	 * Whether a page was asked for without the bodies since the last call: the cards density shows
	 * the image tt-rss names only with them, so its list loads its first page again.
	 */
	takeLacksBodies(): boolean {
		const lacked = this.#state.lacksBodies;
		this.#state.lacksBodies = false;
		return lacked;
	}

	/** The page of `query` from `skip` (list-paging-reads.ts `readPage`). */
	async page(...args: AfterState<Reads['readPage']>): Promise<PageRead | undefined> {
		return (await reads.load()).readPage(this.#state, ...args);
	}

	/** The top of the server's list for a refresh (list-paging-reads.ts `readTop`). */
	async top(...args: AfterState<Reads['readTop']>): Promise<TopRead | undefined> {
		return (await reads.load()).readTop(this.#state, ...args);
	}

	/** A refresh's top is merged: its first id is the list's now. */
	tookTop(read: { firstId: number | undefined }): void {
		this.#state.firstId = read.firstId;
	}
}
