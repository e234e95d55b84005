import { describe, expect, it } from 'vitest';
import type { FeedTree, TreeCategory, TreeFeed } from '$lib/api';
import { rowOffsets } from './tree-index';

const feed = (id: number): TreeFeed => ({ id, title: `Feed ${id}`, unread: 0, error: undefined });
const cat = (id: number, feeds: number[], categories: TreeCategory[] = []): TreeCategory => ({
	id,
	title: `Category ${id}`,
	unread: 0,
	categories,
	feeds: feeds.map(feed)
});

describe('rowOffsets', () => {
	it('counts the rows before each category’s contents, depth first, as the tree shows them', () => {
		// Special (2) · Tech [Web [2 feeds], 1 feed] · World [3 feeds] · Empty · 1 feed · 2 labels
		const tree: FeedTree = {
			special: [feed(-1), feed(-4)],
			categories: [cat(1, [11], [cat(2, [21, 22])]), cat(3, [31, 32, 33]), cat(4, [])],
			feeds: [feed(5)],
			labels: [feed(-1025), feed(-1026)],
			source: 'getFeedTree'
		};
		const offsets = rowOffsets(tree);
		// Tech's contents follow the special feeds and its own row; Web's follow Web's row.
		expect(offsets.categories.get(1)).toBe(3);
		expect(offsets.categories.get(2)).toBe(4);
		// After Web's two feeds and Tech's one: World's row, then its contents.
		expect(offsets.categories.get(3)).toBe(8);
		expect(offsets.categories.get(4)).toBe(12);
		expect(offsets.feeds).toBe(12);
		expect(offsets.total).toBe(15);
	});

	it('has no rows without a tree', () => {
		expect(rowOffsets(undefined)).toEqual({ categories: new Map(), feeds: 0, total: 0 });
	});
});
