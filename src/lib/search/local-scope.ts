/**
 * Where an offline search looks: the same place the server's search would (the open feed, the
 * open category with the categories inside it, the open feed's category, a label, a special
 * feed, a tag — or every feed), in the list's view mode and order, told from the cached articles
 * themselves. Loaded with the first search on this device, not with the first screen.
 */
import {
	DEVICE_FEED,
	isLabelFeedId,
	SPECIAL_FEED,
	viewModeKeeps,
	type FeedTree,
	type Headline
} from '$lib/api';
import { feedsInCategory } from '$lib/tree/walk';
import { isFresh, isToday, startOfLocalDay } from '$lib/counters/counts';
import type { LocalSearchOptions } from './indexer';
import { searchTarget, type ScopeQuery } from './scope';

export type LocalScope = Omit<LocalSearchOptions, 'query'>;

/** What a feed id keeps, for the feeds that are not ordinary ones. */
function specialFilter(id: number, now: number): ((row: Headline) => boolean) | undefined {
	if (id === SPECIAL_FEED.starred) return (row) => row.marked;
	if (id === SPECIAL_FEED.published) return (row) => row.published;
	if (id === SPECIAL_FEED.fresh) return (row) => row.unread && isFresh(row, now);
	if (id === SPECIAL_FEED.recentlyRead) return (row) => !row.unread;
	if (id === SPECIAL_FEED.archived) return (row) => row.feedId === null;
	if (id === DEVICE_FEED.today) return (row) => isToday(row, now);
	if (isLabelFeedId(id)) return (row) => row.labels.some((label) => label.id === id);
	// All articles, and plugin feeds the cache cannot tell apart: every cached article.
	return undefined;
}

const both = (
	a: ((row: Headline) => boolean) | undefined,
	b: ((row: Headline) => boolean) | undefined
): ((row: Headline) => boolean) | undefined => (a && b ? (row) => a(row) && b(row) : (a ?? b));

export function localScope(
	query: ScopeQuery,
	tree: FeedTree | undefined,
	now = Date.now()
): LocalScope {
	const scope: LocalScope = { oldestFirst: query.orderBy === 'date_reverse' };
	const target = searchTarget(query, tree);
	const id = Number(target.id);
	// Every local scope is a search: "adaptive" keeps every match, as the server's search does.
	let keep: ((row: Headline) => boolean) | undefined = viewModeKeeps(query.viewMode, {
		searching: true,
		...(target.kind === 'feed' ? { feedId: id } : {})
	});
	if (target.kind === 'tag') {
		const tag = target.id.toLowerCase();
		keep = both(keep, (row) => row.tags.some((t) => t.toLowerCase() === tag));
	} else if (target.kind === 'cat') {
		// Special (-1) and Labels (-2) hold no feeds of their own: every feed, as All articles.
		const feeds = id >= 0 ? feedsInCategory(tree, id) : undefined;
		if (feeds) scope.feeds = feeds;
	} else if (id > 0) {
		scope.feeds = new Set([id]);
	} else {
		keep = both(keep, specialFilter(id, now));
		if (id === DEVICE_FEED.today) scope.updatedSince = startOfLocalDay(now) / 1000;
	}
	if (keep) scope.keep = keep;
	return scope;
}
