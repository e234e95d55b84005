/**
 * The open list's server paging (state/headlines.svelte.ts shows what it reads): one
 * `getHeadlines` request per page, sized by the server's headline limit; where the next page
 * starts when the server's view drops rows read here; a restart from the top when new articles
 * arrived there while paging (`check_first_id`); and a refresh's read of the list's top, where new
 * rows go among the loaded ones (list-merge.ts). Each read returns what it found; the list applies
 * it. A read whose list was replaced meanwhile (`current()` false) returns nothing.
 */
import { viewModeKeeps, type Headline, type HeadlinesResult, type ViewModeRow } from '$lib/api';
import {
	FIRST_PAGE,
	feedIdOf,
	headlinesParams,
	targetOf,
	type HeadlinesPage,
	type ListQuery
} from './list-query';
import { topIsEnough } from './list-merge';
import { session } from './session.svelte';
import { settings } from './settings.svelte';
import { treeState } from './tree.svelte';

/** A refresh asks for at most this many pages to place new rows among the loaded ones. */
const MERGE_PAGES = 8;

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

export class ServerPaging {
	/** The first id of the list's first page: a later page asks the server whether it still is. */
	#firstId: number | undefined;
	/**
	 * The rows the server's view keeps (unread ones, say), as its first page showed; undefined when
	 * it keeps all. A row read here leaves that list on the server: the next page's `skip` counts
	 * only the loaded rows it still lists, as tt-rss's own web UI does (Headlines.loadMore), or the
	 * next page would start that many rows late and the rows skipped would never be shown.
	 */
	#serverKeeps: ((row: ViewModeRow) => boolean) | undefined;
	/** Whether rows were asked for without their bodies, so without tt-rss's image for a card. */
	#lacksBodies = false;

	/** A new list (or none): the last one's first id and view say nothing of it. */
	reset(): void {
		this.#firstId = undefined;
		this.#serverKeeps = undefined;
	}

	/** Where the page after the loaded rows starts on the server. */
	nextSkip(loaded: readonly Headline[]): number {
		const keeps = this.#serverKeeps;
		return keeps ? loaded.filter(keeps).length : loaded.length;
	}

	/**
	 * Whether a page was asked for without the bodies since the last call: the cards density shows
	 * the image tt-rss names only with them, so its list loads its first page again.
	 */
	takeLacksBodies(): boolean {
		const lacked = this.#lacksBodies;
		this.#lacksBodies = false;
		return lacked;
	}

	/** One `getHeadlines` request for the open list (its search scope, view mode and order). */
	async #ask(query: ListQuery, page: HeadlinesPage): Promise<HeadlinesResult> {
		const client = await session.api();
		const caps = await client.detectCapabilities();
		const withBodies = settings.values.density === 'cards';
		if (!withBodies) this.#lacksBodies = true;
		return client.getHeadlines(headlinesParams(query, page, caps, treeState.tree, withBodies));
	}

	/**
	 * The page of `query` from `skip`. With no rows shown yet when it is asked (the cache's may come
	 * while the server is reached), the first page is short, for a quick first screen. The answer
	 * (or failure) is taken only after `applyAfter` settles.
	 */
	async page(
		query: ListQuery,
		skip: number,
		options: {
			/** How many rows are shown now. */
			loaded: () => number;
			/** The page replaces the loaded rows: the server's view is judged from it. */
			replace: boolean;
			forceUpdate?: boolean | undefined;
			applyAfter?: Promise<void> | undefined;
		},
		current: () => boolean
	): Promise<PageRead | undefined> {
		const caps = await (await session.api()).detectCapabilities();
		const pageSize =
			skip === 0 && options.loaded() === 0
				? Math.min(FIRST_PAGE, caps.headlineLimit)
				: caps.headlineLimit;
		const result = await this.#ask(query, {
			skip,
			limit: pageSize,
			forceUpdate: options.forceUpdate,
			checkFirstId: this.#firstId
		}).finally(() => options.applyAfter);
		if (!current()) return undefined;
		// New articles arrived at the top while paging: start again from the top.
		if (result.header?.firstIdChanged) return { type: 'restart' };
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
		return { type: 'page', rows: result.headlines, pageSize };
	}

	/**
	 * The top of the server's list, as far as it takes to place the rows that arrived among the
	 * loaded ones (as they stand at each answer: the reader may read some meanwhile). In the server's default order a first request asks only for articles with
	 * higher ids (`since_id`): nothing new, nothing more.
	 */
	async top(
		query: ListQuery,
		loadedNow: () => readonly Headline[],
		current: () => boolean
	): Promise<TopRead | undefined> {
		const loaded = loadedNow();
		const { headlineLimit } = await (await session.api()).detectCapabilities();
		// New rows have higher ids: in the server's default order one cheap request finds them
		// all (unless more arrived than one answer holds), and says whether anything did.
		let arrived: Set<number> | undefined;
		let firstLimit = Math.min(headlineLimit, Math.max(FIRST_PAGE, loaded.length));
		if (query.orderBy === '') {
			const sinceId = loaded.reduce((max, h) => Math.max(max, h.id), 0);
			const answer = await this.#ask(query, { skip: 0, limit: headlineLimit, sinceId });
			if (!current()) return undefined;
			const known = new Set(loadedNow().map((h) => h.id));
			const fresh = answer.headlines.map((h) => h.id).filter((id) => !known.has(id));
			if (fresh.length === 0) return { type: 'unchanged' };
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
			if (!current()) return undefined;
			if (result.header?.firstIdChanged) return { type: 'restart' };
			if (n === 0) firstId = result.header?.firstId;
			top.push(...result.headlines);
			ended = result.headlines.length < limit;
			if (ended || topIsEnough(loadedNow(), top, { arrived, listed })) break;
		}
		return { type: 'top', rows: top, ended, arrived, firstId };
	}

	/** A refresh's top is merged: its first id is the list's now. */
	tookTop(read: { firstId: number | undefined }): void {
		this.#firstId = read.firstId;
	}
}
