/**
 * Where an offline search looks: the same place the server's search would (the open feed, the
 * open category with the categories inside it, a label, a special feed, a tag — or every feed),
 * in the list's view mode and order, told from the cached articles themselves.
 */
import {
	isLabelFeedId,
	SPECIAL_FEED,
	type FeedTree,
	type Headline,
	type TreeCategory
} from '$lib/api';
import { isFresh } from '$lib/outbox/effect';
import type { LocalSearchOptions } from './indexer';

/** The parts of the open list that decide the scope (state/headlines.svelte.ts `ListQuery`). */
export interface ScopeQuery {
	kind: 'feed' | 'cat' | 'tag';
	id: string;
	viewMode: string;
	orderBy: string;
	searchMode: string;
}

export type LocalScope = Omit<LocalSearchOptions, 'query'>;

function feedsIn(tree: FeedTree | undefined, catId: number): Set<number> | undefined {
	const find = (categories: readonly TreeCategory[]): TreeCategory | undefined => {
		for (const c of categories) {
			if (c.id === catId) return c;
			const inner = find(c.categories);
			if (inner) return inner;
		}
		return undefined;
	};
	const category = find(tree?.categories ?? []);
	if (!category) return undefined;
	const feeds = new Set<number>();
	const walk = (c: TreeCategory): void => {
		for (const f of c.feeds) feeds.add(f.id);
		c.categories.forEach(walk);
	};
	walk(category);
	return feeds;
}

function viewFilter(viewMode: string): ((row: Headline) => boolean) | undefined {
	if (viewMode === 'unread') return (row) => row.unread;
	if (viewMode === 'marked') return (row) => row.marked;
	if (viewMode === 'published') return (row) => row.published;
	if (viewMode === 'has_note') return (row) => !!row.note;
	// adaptive, all_articles, updated: every match (tt-rss's "updated" filters nothing either).
	return undefined;
}

/** What a feed id keeps, for the feeds that are not ordinary ones. */
function specialFilter(id: number, now: number): ((row: Headline) => boolean) | undefined {
	if (id === SPECIAL_FEED.starred) return (row) => row.marked;
	if (id === SPECIAL_FEED.published) return (row) => row.published;
	if (id === SPECIAL_FEED.fresh) return (row) => row.unread && isFresh(row, now);
	if (id === SPECIAL_FEED.recentlyRead) return (row) => !row.unread;
	if (id === SPECIAL_FEED.archived) return (row) => row.feedId === null;
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
	let keep = viewFilter(query.viewMode);
	if (query.searchMode !== 'all_feeds') {
		const id = Number(query.id);
		if (query.kind === 'tag') {
			const tag = query.id.toLowerCase();
			keep = both(keep, (row) => row.tags.some((t) => t.toLowerCase() === tag));
		} else if (query.kind === 'cat') {
			// Special (-1) and Labels (-2) hold no feeds of their own: every feed, as All articles.
			const feeds = id >= 0 ? feedsIn(tree, id) : undefined;
			if (feeds) scope.feeds = feeds;
		} else if (id > 0) {
			scope.feeds = new Set([id]);
		} else {
			keep = both(keep, specialFilter(id, now));
		}
	}
	if (keep) scope.keep = keep;
	return scope;
}
