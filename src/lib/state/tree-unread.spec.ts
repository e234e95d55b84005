import { describe, expect, it } from 'vitest';
import type { FeedTree, TreeCategory } from '$lib/api';
import { afterCatchup, type UnreadCounts } from '$lib/counters/counts';
import { categoryHasUnread } from './tree-unread';

const counts: UnreadCounts = {
	feeds: new Map([
		[3, 2],
		[-4, 2]
	]),
	categories: new Map([[7, 2]]),
	global: 2
};

describe('categoryHasUnread', () => {
	const web: TreeCategory = {
		id: 8,
		title: 'Web',
		unread: undefined,
		categories: [],
		feeds: [{ id: 3, title: 'Feed 3', unread: undefined, error: undefined }]
	};
	const tech: TreeCategory = { ...web, id: 7, title: 'Tech', categories: [web], feeds: [] };
	const tree: FeedTree = {
		source: 'getFeedTree',
		categories: [tech],
		special: [],
		labels: [],
		feeds: []
	};

	it('finds unread articles in a nested feed until its feed is caught up', () => {
		const noCategories = { ...counts, categories: new Map<number, number>() };
		expect(categoryHasUnread(tech, noCategories)).toBe(true);
		const caughtUp = afterCatchup(noCategories, tree, { feedId: 3, isCat: false, mode: 'all' });
		expect(categoryHasUnread(tech, caughtUp)).toBe(false);
	});
});
