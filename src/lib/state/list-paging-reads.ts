/**
 * The open list's reads of the server (list-paging.ts keeps what they remember between them):
 * loaded at the list's first read of the server, after the first screen has drawn the cache's rows
 * (the first screen's JavaScript budget, docs/benchmarks.md).
 */
import { viewModeKeeps, type Headline, type HeadlinesResult } from '$lib/api';
import {
	FIRST_PAGE,
	feedIdOf,
	headlinesParams,
	targetOf,
	type HeadlinesPage,
	type ListQuery
} from './list-query';
import { topIsEnough } from './list-merge';
import type { PageRead, PagingState, TopRead } from './list-paging';
import { session } from './session.svelte';
import { settings } from './settings.svelte';
import { treeState } from './tree.svelte';

/** A refresh asks for at most this many pages to place new rows among the loaded ones. */
const MERGE_PAGES = 8;

/** One `getHeadlines` request for the open list (its search scope, view mode and order). */
async function ask(
	state: PagingState,
	query: ListQuery,
	page: HeadlinesPage
): Promise<HeadlinesResult> {
	const client = await session.api();
	const caps = await client.detectCapabilities();
	const withBodies = settings.values.density === 'cards';
	if (!withBodies) state.lacksBodies = true;
	return client.getHeadlines(headlinesParams(query, page, caps, treeState.tree, withBodies));
}

/**
 * The page of `query` from `skip`. With no rows shown yet when it is asked (the cache's may come
 * while the server is reached), the first page is short, for a quick first screen. The answer
 * (or failure) is taken only after `applyAfter` settles.
 */
export async function readPage(
	state: PagingState,

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
	const result = await ask(state, query, {
		skip,
		limit: pageSize,
		forceUpdate: options.forceUpdate,
		checkFirstId: state.firstId
	}).finally(() => options.applyAfter);
	if (!current()) return undefined;
	// New articles arrived at the top while paging: start again from the top.
	if (result.header?.firstIdChanged) return { type: 'restart' };
	if (skip === 0) state.firstId = result.header?.firstId;
	if (options.replace) {
		// Judged from the server's own answer (before changes still queued here).
		const keeps = viewModeKeeps(query.viewMode, {
			feedId: feedIdOf(targetOf(query, treeState.tree)),
			searching: !!query.search,
			anyUnread: true
		});
		const rows = result.headlines;
		state.serverKeeps = keeps && rows.length > 0 && rows.every(keeps) ? keeps : undefined;
	}
	return { type: 'page', rows: result.headlines, pageSize };
}

/**
 * The top of the server's list, as far as it takes to place the rows that arrived among the
 * loaded ones (as they stand at each answer: the reader may read some meanwhile). In the server's default order a first request asks only for articles with
 * higher ids (`since_id`): nothing new, nothing more.
 */
export async function readTop(
	state: PagingState,

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
		const answer = await ask(state, query, { skip: 0, limit: headlineLimit, sinceId });
		if (!current()) return undefined;
		const known = new Set(loadedNow().map((h) => h.id));
		const fresh = answer.headlines.map((h) => h.id).filter((id) => !known.has(id));
		if (fresh.length === 0) return { type: 'unchanged' };
		if (answer.headlines.length < headlineLimit) {
			arrived = new Set(fresh);
			firstLimit = Math.min(headlineLimit, FIRST_PAGE + fresh.length);
		}
	}
	const listed = state.serverKeeps;
	const top: Headline[] = [];
	let firstId: number | undefined;
	let ended = false;
	for (let n = 0; n < MERGE_PAGES; n++) {
		const limit = n === 0 ? firstLimit : headlineLimit;
		const result = await ask(state, query, { skip: top.length, limit, checkFirstId: firstId });
		if (!current()) return undefined;
		if (result.header?.firstIdChanged) return { type: 'restart' };
		if (n === 0) firstId = result.header?.firstId;
		top.push(...result.headlines);
		ended = result.headlines.length < limit;
		if (ended || topIsEnough(loadedNow(), top, { arrived, listed })) break;
	}
	return { type: 'top', rows: top, ended, arrived, firstId };
}
