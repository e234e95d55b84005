import { describe, expect, it } from 'vitest';
import { SPECIAL_FEED, type Counters } from '$lib/api';
import { parseCounters, parseFeedTree } from '$lib/api/parse';
import { recordedContent } from '$support/fake-fetch';
import { treeFromNodes } from '$lib/api/tree';
import { afterCatchup, afterRead, countsFrom, writeCounts, type UnreadCounts } from './counts';

const NOW = 1_790_000_000_000;
/** The test bed's tree: Tech (1) holds feed 1 and Web (2) with feed 2; World (3); Uncategorized. */
const tree = treeFromNodes(parseFeedTree(recordedContent('api15', 'getFeedTree')));
const recorded = (): Counters => parseCounters(recordedContent('api15', 'getCounters'));
const old = { updated: NOW / 1000 - 30 * 3600, score: 0 };

const counts: UnreadCounts = {
	feeds: new Map([
		[3, 2],
		[-4, 2]
	]),
	categories: new Map([[3, 2]]),
	global: 2
};

describe('afterRead', () => {
	it('moves the feed, All, its categories and the total, never below zero', () => {
		const after = afterRead(counts, tree, { feedId: 3, ...old }, -3, NOW);
		expect([...after.feeds]).toEqual([
			[3, 0],
			[-4, 0]
		]);
		expect(after.categories.get(3)).toBe(0);
		expect(after.global).toBe(0);
		expect(counts.feeds.get(3)).toBe(2); // a new object: the old one is untouched
	});

	it('moves every category above a nested feed', () => {
		const after = afterRead(countsFrom(recorded()), tree, { feedId: 2, ...old }, -1, NOW);
		expect([after.categories.get(2), after.categories.get(1)]).toEqual([6, 15]);
	});

	it('adds a counter it did not know only when articles became unread', () => {
		const fresh = { feedId: 3, updated: NOW / 1000 - 3600, score: 0 };
		expect(afterRead(counts, tree, fresh, -1, NOW).feeds.has(SPECIAL_FEED.fresh)).toBe(false);
		expect(afterRead(counts, tree, fresh, 1, NOW).feeds.get(SPECIAL_FEED.fresh)).toBe(1);
	});
});

describe('afterCatchup, as tt-rss marks (Feeds::_catchup)', () => {
	const before = countsFrom(recorded());
	const all = (c: UnreadCounts): (number | undefined)[] => [
		c.feeds.get(SPECIAL_FEED.all),
		c.feeds.get(SPECIAL_FEED.fresh),
		c.global
	];

	it('zeroes a category with its subcategories and their feeds; All and the total lose them', () => {
		expect([before.categories.get(1), before.feeds.get(1), before.feeds.get(2)]).toEqual([
			16, 9, 7
		]);
		const after = afterCatchup(before, tree, { feedId: 1, isCat: true, mode: 'all' });
		expect([1, 2].map((id) => after.feeds.get(id))).toEqual([0, 0]);
		expect([1, 2].map((id) => after.categories.get(id))).toEqual([0, 0]);
		expect(all(after)).toEqual([321, 321, 321]);
		// Other categories and feeds keep theirs.
		expect([after.categories.get(3), after.categories.get(0), after.feeds.get(6)]).toEqual([
			11, 310, 300
		]);
	});

	it('takes a nested category’s rest from the categories above it', () => {
		const after = afterCatchup(before, tree, { feedId: 2, isCat: true, mode: 'all' });
		expect([after.feeds.get(2), after.categories.get(2), after.categories.get(1)]).toEqual([
			0, 0, 9
		]);
		expect(after.feeds.get(1)).toBe(9);
		expect(all(after)).toEqual([330, 330, 330]);
	});

	it('zeroes a feed and takes its rest from its categories', () => {
		const after = afterCatchup(before, tree, { feedId: 2, isCat: false, mode: 'all' });
		expect([after.feeds.get(2), after.categories.get(2), after.categories.get(1)]).toEqual([
			0, 0, 9
		]);
	});

	it('leaves the counters alone when it spares articles (they stay unread)', () => {
		const after = afterCatchup(before, tree, { feedId: 2, isCat: false, mode: 'all', spare: [7] });
		expect(after).toBe(before);
	});

	it('zeroes everything for All articles, and only their own counter for other special feeds', () => {
		const everything = afterCatchup(before, tree, { feedId: -4, isCat: false, mode: 'all' });
		const values = [...everything.feeds.values(), ...everything.categories.values()];
		expect(values.length).toBeGreaterThan(10);
		expect(values.filter((n) => n !== 0)).toEqual([]);
		expect(everything.global).toBe(0);
		const starred = afterCatchup(before, tree, { feedId: -1, isCat: false, mode: 'all' });
		expect(starred.feeds.get(SPECIAL_FEED.starred)).toBe(0);
		expect(all(starred)).toEqual(all(before));
	});

	it('leaves the counters to the articles for a catch-up by age, a search or a tag', () => {
		for (const scope of [
			{ feedId: 1, isCat: true, mode: '1day' as const },
			{ feedId: 1, isCat: true, mode: 'all' as const, search: 'web' },
			{ feedId: 'podcast', isCat: false, mode: 'all' as const }
		]) {
			expect(afterCatchup(before, tree, scope)).toBe(before);
		}
	});
});

describe('writeCounts', () => {
	it('writes the counts into the stored reply, adding the counters it lacked', () => {
		const stored = recorded();
		const after = afterRead(countsFrom(stored), tree, { feedId: 77, ...old }, 1, NOW);
		writeCounts(stored, after);
		expect(countsFrom(stored)).toEqual(after);
		expect(stored.feeds.find((c) => c.id === 77)?.unread).toBe(1);
	});
});
