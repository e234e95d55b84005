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

/** The counts after `delta` articles of a feed changed read state (never below zero). */
export function withFeedDelta(counts: UnreadCounts, feedId: number, delta: number): UnreadCounts {
	const feeds = new Map(counts.feeds);
	feeds.set(feedId, Math.max(0, (feeds.get(feedId) ?? 0) + delta));
	const global = counts.global === undefined ? undefined : Math.max(0, counts.global + delta);
	return { ...counts, feeds, global };
}

/** Whether a category (or anything below it) has unread articles, for "hide read feeds". */
export function categoryHasUnread(category: TreeCategory, counts: UnreadCounts): boolean {
	if ((counts.categories.get(category.id) ?? 0) > 0) return true;
	return (
		category.feeds.some((f) => (counts.feeds.get(f.id) ?? f.unread ?? 0) > 0) ||
		category.categories.some((c) => categoryHasUnread(c, counts))
	);
}
