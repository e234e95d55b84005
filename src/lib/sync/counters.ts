/**
 * What one getCounters reply says about the kept sets, and whether it moved since the last sync.
 * tt-rss has no "changed since" op; its counters are the only cheap sign of change. A snapshot
 * keeps the numbers that move when a kept set changes (unread per feed and label, starred and
 * published totals) and leaves out those that move without any article changing (the feeds'
 * last-update times, icon stamps). Pure functions: the engine and its tests use them.
 */
import { SPECIAL_FEED, type Counters, type FeedCounter, type Headline } from '$lib/api';

export interface CounterSnapshot {
	globalUnread: number;
	/** Real feed id → unread articles. */
	unread: Record<string, number>;
	/** Label feed id → unread articles with that label. */
	labels: Record<string, number>;
	/** Starred: the special feed's counters and every feed's starred count. */
	starred: string;
	/** Published: the special feed's counters. */
	published: string;
}

const special = (counters: Counters, id: number): FeedCounter | undefined =>
	counters.special.find((c) => c.id === id);

export function snapshotOf(counters: Counters): CounterSnapshot {
	const unread: Record<string, number> = {};
	const marked: [number, number][] = [];
	for (const f of counters.feeds) {
		unread[f.id] = f.unread;
		// A new feed with nothing starred changes nothing starred.
		if (f.marked) marked.push([f.id, f.marked]);
	}
	const labels: Record<string, number> = {};
	for (const l of counters.labels) labels[l.id] = l.unread;
	const starred = special(counters, SPECIAL_FEED.starred);
	const published = special(counters, SPECIAL_FEED.published);
	return {
		// Newer servers may leave global-unread out; the sum of the feeds says the same.
		globalUnread:
			counters.globalUnread ?? counters.feeds.reduce((sum, f) => sum + Math.max(0, f.unread), 0),
		unread,
		labels,
		starred: JSON.stringify([starred?.unread, starred?.aux, starred?.marked, marked]),
		published: JSON.stringify([published?.unread, published?.aux])
	};
}

function sameNumbers(a: Record<string, number>, b: Record<string, number>): boolean {
	const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
	for (const k of keys) if ((a[k] ?? 0) !== (b[k] ?? 0)) return false;
	return true;
}

export function sameSnapshot(a: CounterSnapshot, b: CounterSnapshot): boolean {
	return (
		a.globalUnread === b.globalUnread &&
		a.starred === b.starred &&
		a.published === b.published &&
		sameNumbers(a.unread, b.unread) &&
		sameNumbers(a.labels, b.labels)
	);
}

/** Which kept sets may have changed elsewhere, beyond the new articles just fetched. */
export interface CounterMoves {
	unread: boolean;
	starred: boolean;
	published: boolean;
}

/**
 * Compares the counters now with those of the last sync plus what the new unread articles
 * (fetched with `since_id`) add. When the new articles explain every unread counter that moved,
 * nothing was read or unread elsewhere, and the unread set need not be read again. Without a
 * previous snapshot every set counts as moved.
 */
export function counterMoves(
	before: CounterSnapshot | undefined,
	now: CounterSnapshot,
	newUnread: readonly Pick<Headline, 'feedId' | 'unread' | 'labels'>[]
): CounterMoves {
	if (!before) return { unread: true, starred: true, published: true };
	const unread = { ...before.unread };
	const labels = { ...before.labels };
	let global = before.globalUnread;
	for (const h of newUnread) {
		if (!h.unread) continue;
		global++;
		if (h.feedId !== null && h.feedId > 0) unread[h.feedId] = (unread[h.feedId] ?? 0) + 1;
		for (const label of h.labels) labels[label.id] = (labels[label.id] ?? 0) + 1;
	}
	return {
		unread:
			global !== now.globalUnread ||
			!sameNumbers(unread, now.unread) ||
			!sameNumbers(labels, now.labels),
		starred: before.starred !== now.starred,
		published: before.published !== now.published
	};
}

/** The counters of one pack's place, as a string that changes when its articles do. */
export function packCounterOf(
	counters: Counters,
	pack: { kind: 'feed' | 'cat' | 'label'; feedId: number }
): string {
	if (pack.kind === 'cat') {
		const c = counters.categories.filter((x) => x.id === pack.feedId).at(-1);
		return JSON.stringify([c?.unread, c?.marked]);
	}
	const list = pack.kind === 'label' ? counters.labels : [...counters.feeds, ...counters.special];
	const f = list.find((x) => x.id === pack.feedId);
	return JSON.stringify([f?.unread, f?.marked, f?.aux, f?.published]);
}
