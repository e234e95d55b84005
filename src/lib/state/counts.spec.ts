import { describe, expect, it } from 'vitest';
import type { TreeCategory } from '$lib/api';
import { categoryHasUnread, withCleared, withFeedDelta, type UnreadCounts } from './counts';

const counts: UnreadCounts = {
	feeds: new Map([
		[3, 2],
		[-4, 2]
	]),
	categories: new Map([[7, 2]]),
	global: 2
};

describe('withFeedDelta', () => {
	it('moves the named feeds, the categories and the total, never below zero', () => {
		const after = withFeedDelta(counts, [3, -4], -3, [7]);
		expect([...after.feeds]).toEqual([
			[3, 0],
			[-4, 0]
		]);
		expect(after.categories.get(7)).toBe(0);
		expect(after.global).toBe(0);
		expect(counts.feeds.get(3)).toBe(2); // a new object: the old one is untouched
	});

	it('adds a counter it did not know only when articles became unread', () => {
		expect(withFeedDelta(counts, [-3], -1).feeds.has(-3)).toBe(false);
		expect(withFeedDelta(counts, [-3], 1).feeds.get(-3)).toBe(1);
	});
});

describe('withCleared and categoryHasUnread', () => {
	const web: TreeCategory = {
		id: 8,
		title: 'Web',
		unread: undefined,
		categories: [],
		feeds: [{ id: 3, title: 'Feed 3', unread: undefined, error: undefined }]
	};
	const tech: TreeCategory = { ...web, id: 7, title: 'Tech', categories: [web], feeds: [] };

	it('finds unread articles in a nested feed until its feed is cleared', () => {
		const noCategories = { ...counts, categories: new Map<number, number>() };
		expect(categoryHasUnread(tech, noCategories)).toBe(true);
		expect(categoryHasUnread(tech, withCleared(noCategories, false, 3))).toBe(false);
		expect(withCleared(counts, true, 7).categories.get(7)).toBe(0);
	});
});
