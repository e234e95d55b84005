import { describe, expect, it } from 'vitest';
import type { FeedTree } from '$lib/api';
import { cat, feed } from '$support/factories';
import { rowWindow, treeRows, type TreeRow, type TreeRowRules } from './rows';

// Special (2) · Tech [Web [2 feeds], 1 feed] · World [3 feeds] · Empty · 1 feed · 2 labels
const tree: FeedTree = {
	special: [feed(-1), feed(-4)],
	categories: [cat(1, [11], [cat(2, [21, 22])]), cat(3, [31, 32, 33]), cat(4, [])],
	feeds: [feed(5)],
	labels: [feed(-1025), feed(-1026)],
	source: 'getFeedTree'
};

const all: TreeRowRules = {
	collapsed: () => false,
	showFeed: () => true,
	showCategory: () => true
};

/** Each row as `key level posinset/setsize` (headings as their key). */
const shape = (rows: TreeRow[]): string[] =>
	rows.map((r) =>
		r.kind === 'heading' ? r.key : `${r.key} ${r.level} ${r.posinset}/${r.setsize}`
	);

describe('treeRows', () => {
	it('lists the tree depth first, each category before its contents, with level and place', () => {
		expect(shape(treeRows(tree, all))).toEqual([
			'feed:-1 1 1/2',
			'feed:-4 1 2/2',
			'heading:categories',
			// Tech's set: Web, then its own feed.
			'cat:1 1 1/4',
			'cat:2 2 1/2',
			'feed:21 3 1/2',
			'feed:22 3 2/2',
			'feed:11 2 2/2',
			'cat:3 1 2/4',
			'feed:31 2 1/3',
			'feed:32 2 2/3',
			'feed:33 2 3/3',
			'cat:4 1 3/4',
			// Uncategorized feeds share the top level with the categories.
			'feed:5 1 4/4',
			'heading:labels',
			'feed:-1025 1 1/2',
			'feed:-1026 1 2/2'
		]);
	});

	it('leaves out a collapsed category’s contents, and says it is collapsed', () => {
		const rows = treeRows(tree, { ...all, collapsed: (id) => id === 1 });
		expect(shape(rows).slice(2, 5)).toEqual(['heading:categories', 'cat:1 1 1/4', 'cat:3 1 2/4']);
		expect(rows.find((r) => r.key === 'cat:1')).toMatchObject({ expanded: false });
		expect(rows.find((r) => r.key === 'cat:3')).toMatchObject({ expanded: true });
	});

	it('counts only the rows shown in each set', () => {
		const rows = treeRows(tree, {
			...all,
			showFeed: (f) => f.id !== 11 && f.id !== 32,
			showCategory: (c) => c.id !== 4
		});
		expect(shape(rows)).toContain('cat:2 2 1/1');
		expect(shape(rows)).toContain('feed:33 2 2/2');
		expect(shape(rows)).toContain('feed:5 1 3/3');
		expect(rows.some((r) => r.key === 'cat:4' || r.key === 'feed:11')).toBe(false);
	});

	it('has no Labels heading without labels, and no rows without a tree', () => {
		expect(shape(treeRows({ ...tree, labels: [] }, all))).not.toContain('heading:labels');
		expect(treeRows(undefined, all)).toEqual([]);
	});
});

describe('rowWindow', () => {
	const view = { top: 0, height: 440, rowHeight: 44, overscan: 2 };

	it('builds the rows in view and the overscan on each side', () => {
		expect(rowWindow(100, view)).toEqual({ indices: range(0, 12), above: 0, below: 88 });
		// Scrolled 20 rows down: rows 20–29 in view, 18–31 built.
		expect(rowWindow(100, { ...view, top: 880 })).toEqual({
			indices: range(18, 32),
			above: 18,
			below: 68
		});
		// The end: nothing below, never past the last row.
		expect(rowWindow(100, { ...view, top: 4000 })).toEqual({
			indices: range(88, 100),
			above: 88,
			below: 0
		});
		expect(rowWindow(5, view)).toEqual({ indices: range(0, 5), above: 0, below: 0 });
		expect(rowWindow(0, view)).toEqual({ indices: [], above: 0, below: 0 });
	});

	it('keeps the focused row built, in the place of a row the overscan hides', () => {
		const above = rowWindow(100, { ...view, top: 880 }, 3);
		expect(above.indices).toEqual([3, ...range(18, 32)]);
		expect(above.above + above.indices.length + above.below).toBe(100);
		expect(above.above).toBe(17);
		const below = rowWindow(100, { ...view, top: 880 }, 90);
		expect(below.indices).toEqual([...range(18, 32), 90]);
		expect(below.below).toBe(67);
		// In the window already: nothing changes.
		expect(rowWindow(100, { ...view, top: 880 }, 20)).toEqual(
			rowWindow(100, { ...view, top: 880 })
		);
	});
});

function range(from: number, to: number): number[] {
	return Array.from({ length: to - from }, (_, i) => from + i);
}
