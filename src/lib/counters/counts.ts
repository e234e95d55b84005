/**
 * The one counter model: how the unread counters move before the server confirms a change, for the
 * page's memory (state/tree.svelte.ts) and the cached copy in IndexedDB (outbox/apply.ts) alike.
 * Pure; every change makes a new object, so state updates are plain. The counters are read again
 * from the server once the outbox has sent the change: what the client cannot know (which of the
 * articles it never saw are fresh or labelled) is left for that.
 */
import {
	isLabelFeedId,
	SPECIAL_FEED,
	type ArticleBase,
	type CatchupMode,
	type Counters,
	type FeedCounter,
	type FeedId,
	type FeedTree
} from '$lib/api';
import {
	categoriesBelow,
	categoryParentsOf,
	feedsBelow,
	findCategory,
	parentsOf
} from '$lib/tree/walk';

/** Unread counts by id, read-only (special and label feeds are feeds too). */
export interface UnreadCounts {
	readonly feeds: ReadonlyMap<number, number>;
	readonly categories: ReadonlyMap<number, number>;
	readonly global: number | undefined;
}

export const NO_COUNTS: UnreadCounts = {
	feeds: new Map(),
	categories: new Map(),
	global: undefined
};

/** One map per kind from one getCounters reply. */
export function countsFrom(counters: Counters): UnreadCounts {
	const feeds = new Map<number, number>();
	for (const c of [...counters.feeds, ...counters.special, ...counters.labels]) {
		feeds.set(c.id, c.unread);
	}
	const categories = new Map<number, number>();
	for (const c of counters.categories) categories.set(c.id, c.unread);
	return { feeds, categories, global: counters.globalUnread };
}

/**
 * Writes `counts` into a stored getCounters reply (the cache's form), in place: every entry takes
 * its count, and a counter the reply lacked is added to its list.
 */
export function writeCounts(counters: Counters, counts: UnreadCounts): void {
	const feedLists = [counters.feeds, counters.special, counters.labels];
	const listed = new Set(feedLists.flatMap((list) => list.map((c) => c.id)));
	for (const list of feedLists) for (const c of list) c.unread = counts.feeds.get(c.id) ?? c.unread;
	for (const [id, unread] of counts.feeds) {
		if (listed.has(id)) continue;
		const list = id > 0 ? counters.feeds : isLabelFeedId(id) ? counters.labels : counters.special;
		list.push(unreadCounter(id, unread));
	}
	const cats = new Set(counters.categories.map((c) => c.id));
	for (const c of counters.categories) c.unread = counts.categories.get(c.id) ?? c.unread;
	for (const [id, unread] of counts.categories) {
		if (!cats.has(id)) counters.categories.push({ id, unread, marked: undefined });
	}
	counters.globalUnread = counts.global;
}

/**
 * "Today": since midnight of the reader's own day (the device's time zone), as a calendar says
 * it, not a rolling 24 hours — at 9:00 it holds the morning's articles, not last evening's too.
 */
export function startOfLocalDay(now: number): number {
	const day = new Date(now);
	day.setHours(0, 0, 0, 0);
	return day.getTime();
}

/** Whether an article is dated today by the reader's clock (the Today feed's rule). */
export function isToday(article: Pick<ArticleBase, 'updated'>, now: number): boolean {
	return article.updated >= startOfLocalDay(now) / 1000;
}

/**
 * tt-rss's Fresh feed: unread articles with a score of at least 0 that it stored within the
 * user's FRESH_ARTICLE_MAX_AGE hours (24 by default). The API does not send the date it stored an
 * article, so the client counts one as fresh only when its own date is that recent (the server
 * stores an article after it is dated); the counters are read again once the change is sent.
 */
export const FRESH_MAX_AGE_SECONDS = 24 * 3600;

export function isFresh(article: Pick<ArticleBase, 'updated' | 'score'>, now: number): boolean {
	return article.score >= 0 && article.updated > now / 1000 - FRESH_MAX_AGE_SECONDS;
}

/**
 * The feed counters an article's read state moves, as tt-rss counts them: its own feed, All
 * articles, and Fresh when the article is fresh (categories and the total follow the feed).
 * None for an article of no feed (shared to Published), as before.
 */
export function unreadCounterFeeds(
	article: Pick<ArticleBase, 'feedId' | 'updated' | 'score'>,
	now: number
): number[] {
	if (article.feedId === null) return [];
	const ids = [article.feedId, SPECIAL_FEED.all];
	if (isFresh(article, now)) ids.push(SPECIAL_FEED.fresh);
	return ids;
}

/** The tree's walks, once per tree (both callers pass the same tree many times). */
const walks = new WeakMap<
	FeedTree,
	{ feedParents: ReadonlyMap<number, number[]>; catParents: ReadonlyMap<number, number[]> }
>();

function walksOf(tree: FeedTree | undefined): {
	feedParents: ReadonlyMap<number, number[]>;
	catParents: ReadonlyMap<number, number[]>;
} {
	if (!tree) return { feedParents: new Map(), catParents: new Map() };
	let known = walks.get(tree);
	if (!known) {
		known = { feedParents: parentsOf(tree), catParents: categoryParentsOf(tree) };
		walks.set(tree, known);
	}
	return known;
}

/** Moves a counter by `delta`, never below zero; one the counts lack appears only on a rise. */
function bump(map: Map<number, number>, id: number, delta: number): void {
	if (map.has(id) || delta > 0) map.set(id, Math.max(0, (map.get(id) ?? 0) + delta));
}

/**
 * The counts after an article's read state changed by `delta` (+1 unread again, -1 read): the feed
 * counters `unreadCounterFeeds` names, the categories the feed sits in (nested ones included) and
 * the total.
 */
export function afterRead(
	counts: UnreadCounts,
	tree: FeedTree | undefined,
	article: Pick<ArticleBase, 'feedId' | 'updated' | 'score'>,
	delta: number,
	now: number
): UnreadCounts {
	if (article.feedId === null || delta === 0) return counts;
	const feeds = new Map(counts.feeds);
	for (const id of unreadCounterFeeds(article, now)) bump(feeds, id, delta);
	const categories = new Map(counts.categories);
	for (const id of walksOf(tree).feedParents.get(article.feedId) ?? []) {
		bump(categories, id, delta);
	}
	const global = counts.global === undefined ? undefined : Math.max(0, counts.global + delta);
	return { feeds, categories, global };
}

/** The part of a catch-up intent the counters follow. */
export interface CatchupScope {
	feedId: FeedId;
	isCat: boolean;
	mode: CatchupMode;
	search?: string;
	/** Articles the catch-up leaves unread (CatchupIntent `spare`): the counters keep them. */
	spare?: readonly number[];
}

/**
 * Whether a catch-up zeroes its feed's or category's counters (`afterCatchup`): mode `all` of a
 * feed, a category or a special feed, no search, sparing nothing. Any other marks only the
 * articles the device knows, and the counters follow them one by one.
 */
export function zeroesCounters(scope: CatchupScope): scope is CatchupScope & { feedId: number } {
	return (
		scope.mode === 'all' &&
		!scope.search &&
		!scope.spare?.length &&
		typeof scope.feedId === 'number'
	);
}

/**
 * The counts after "mark all as read" (mode `all`, no search), once the articles the device knows
 * were moved one by one (`afterRead`): the unread articles it never saw go too, as tt-rss marks
 * them (Feeds::_catchup). A feed or a category (its subcategories included) drops to zero with its
 * feeds; the categories above it, All articles and the total lose what was left; Fresh stays within
 * All. All articles zeroes everything. Starred, Published, Fresh and labels zero their own counter;
 * what that takes from the feeds is not known here. Any other catch-up (by age, a search, or one
 * that spares articles the list did not show) marks only the articles the device knows.
 */
export function afterCatchup(
	counts: UnreadCounts,
	tree: FeedTree | undefined,
	scope: CatchupScope
): UnreadCounts {
	if (!zeroesCounters(scope)) return counts;
	const id = scope.feedId;
	const feeds = new Map(counts.feeds);
	const categories = new Map(counts.categories);
	const zero = (map: Map<number, number>, key: number): number => {
		const left = map.get(key) ?? 0;
		if (map.has(key)) map.set(key, 0);
		return left;
	};
	if (!scope.isCat && id === SPECIAL_FEED.all) {
		for (const key of feeds.keys()) feeds.set(key, 0);
		for (const key of categories.keys()) categories.set(key, 0);
		return { feeds, categories, global: counts.global === undefined ? undefined : 0 };
	}
	let left = 0;
	let above: readonly number[];
	if (scope.isCat) {
		const category = findCategory(tree?.categories ?? [], (c) => c.id === id);
		// The Special and Labels categories, or one the tree lacks: its own counter only.
		if (!category) {
			zero(categories, id);
			return { ...counts, categories };
		}
		for (const feed of feedsBelow(category)) left += zero(feeds, feed.id);
		for (const inner of categoriesBelow(category)) zero(categories, inner.id);
		above = walksOf(tree).catParents.get(id) ?? [];
	} else if (id > 0) {
		left = zero(feeds, id);
		above = walksOf(tree).feedParents.get(id) ?? [];
	} else {
		zero(feeds, id);
		return { ...counts, feeds };
	}
	for (const cat of above) bump(categories, cat, -left);
	bump(feeds, SPECIAL_FEED.all, -left);
	const all = feeds.get(SPECIAL_FEED.all);
	const fresh = feeds.get(SPECIAL_FEED.fresh);
	if (all !== undefined && fresh !== undefined) feeds.set(SPECIAL_FEED.fresh, Math.min(fresh, all));
	const global = counts.global === undefined ? undefined : Math.max(0, counts.global - left);
	return { feeds, categories, global };
}

/** A counter that knows only its unread count (one the server's reply did not list). */
export function unreadCounter(id: number, unread: number): FeedCounter {
	return {
		id,
		unread,
		marked: undefined,
		published: undefined,
		aux: undefined,
		hasImage: undefined,
		updated: undefined,
		title: undefined
	};
}
