import { describe, expect, it } from 'vitest';
import type { FeedTree } from '$lib/api';
import { cat, feed } from '$support/factories';
import {
	categoriesBelow,
	categoriesWithDepth,
	categoryParentsOf,
	categoryOfFeed,
	feedsInCategory,
	findFeed,
	parentsOf,
	titlesOf
} from './walk';

const tree: FeedTree = {
	source: 'getFeedTree',
	special: [feed(-4)],
	labels: [feed(-1025)],
	feeds: [feed(9)],
	categories: [cat(1, [1, 2], [cat(3, [3], [cat(4, [4])])]), cat(0, [5])]
};

describe('tree walks', () => {
	it('knows a category’s parents and the categories below it', () => {
		expect([...categoryParentsOf(tree)]).toEqual([
			[1, []],
			[3, [1]],
			[4, [3, 1]],
			[0, []]
		]);
		const [top] = tree.categories;
		expect(top && categoriesBelow(top).map((c) => c.id)).toEqual([1, 3, 4]);
	});

	it('finds the feeds below a category, nested ones included', () => {
		expect([...(feedsInCategory(tree, 1) ?? [])]).toEqual([1, 2, 3, 4]);
		expect([...(feedsInCategory(tree, 4) ?? [])]).toEqual([4]);
		expect(feedsInCategory(tree, 77)).toBeUndefined();
		expect(feedsInCategory(undefined, 1)).toBeUndefined();
	});

	it('knows a feed’s category, its chain of parents and the real feeds', () => {
		expect(categoryOfFeed(tree, 3)).toBe(3);
		expect(categoryOfFeed(tree, 5)).toBe(0);
		expect(categoryOfFeed(tree, 9)).toBeUndefined();
		expect(parentsOf(tree).get(4)).toEqual([4, 3, 1]);
		expect(findFeed(tree, 9)?.title).toBe('Feed 9');
		expect(findFeed(tree, -4)).toBeUndefined();
	});

	it('titles feeds, labels and categories; lists real categories with their depth', () => {
		const titles = titlesOf(tree);
		expect(titles.get('cat:3')).toBe('Category 3');
		expect(titles.get('feed:-1025')).toBe('Feed -1025');
		expect(titles.get('feed:4')).toBe('Feed 4');
		expect(categoriesWithDepth(tree)).toEqual([
			{ id: 1, title: 'Category 1', depth: 0 },
			{ id: 3, title: 'Category 3', depth: 1 },
			{ id: 4, title: 'Category 4', depth: 2 }
		]);
	});
});
