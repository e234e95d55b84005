import type { Counters, TreeCategory } from '$lib/api';

/** Unread counts by id, read-only: every change makes a new object so state updates are plain. */
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

/** One map per kind from one getCounters reply (special and label feeds are feeds too). */
export function countsFrom(counters: Counters): UnreadCounts {
	const feeds = new Map<number, number>();
	for (const c of [...counters.feeds, ...counters.special, ...counters.labels]) {
		feeds.set(c.id, c.unread);
	}
	const categories = new Map<number, number>();
	for (const c of counters.categories) categories.set(c.id, c.unread);
	return { feeds, categories, global: counters.globalUnread };
}

const bump = (map: Map<number, number>, id: number, delta: number): void => {
	if (map.has(id) || delta > 0) map.set(id, Math.max(0, (map.get(id) ?? 0) + delta));
};

/**
 * The counts after `delta` articles changed read state (never below zero): the feed counters
 * `feedIds` (outbox/effect.ts `unreadCounterFeeds` says which), the categories the article's feed
 * sits in and the global count move together.
 */
export function withFeedDelta(
	counts: UnreadCounts,
	feedIds: readonly number[],
	delta: number,
	categoryIds: readonly number[] = []
): UnreadCounts {
	const feeds = new Map(counts.feeds);
	for (const id of feedIds) bump(feeds, id, delta);
	const categories = new Map(counts.categories);
	for (const id of categoryIds) bump(categories, id, delta);
	const global = counts.global === undefined ? undefined : Math.max(0, counts.global + delta);
	return { feeds, categories, global };
}

/** The counts with one feed's or category's counter at zero (after "mark all read"). */
export function withCleared(counts: UnreadCounts, isCat: boolean, id: number): UnreadCounts {
	const map = new Map(isCat ? counts.categories : counts.feeds);
	map.set(id, 0);
	return isCat ? { ...counts, categories: map } : { ...counts, feeds: map };
}

/** Whether a category (or anything below it) has unread articles, for "hide read feeds". */
export function categoryHasUnread(category: TreeCategory, counts: UnreadCounts): boolean {
	if ((counts.categories.get(category.id) ?? 0) > 0) return true;
	return (
		category.feeds.some((f) => (counts.feeds.get(f.id) ?? f.unread ?? 0) > 0) ||
		category.categories.some((c) => categoryHasUnread(c, counts))
	);
}
