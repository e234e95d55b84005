import type { FeedTree, TreeCategory } from '$lib/api';

/** Feed id → the ids of the categories it sits in, innermost first. */
export function parentsOf(tree: FeedTree | undefined): ReadonlyMap<number, number[]> {
	const parents = new Map<number, number[]>();
	const walk = (categories: readonly TreeCategory[], chain: number[]): void => {
		for (const c of categories) {
			const inner = [c.id, ...chain];
			for (const f of c.feeds) parents.set(f.id, inner);
			walk(c.categories, inner);
		}
	};
	walk(tree?.categories ?? [], []);
	return parents;
}

/** `feed:<id>` / `cat:<id>` → title. */
export function titlesOf(tree: FeedTree | undefined): ReadonlyMap<string, string> {
	const titles = new Map<string, string>();
	if (!tree) return titles;
	for (const f of [...tree.special, ...tree.labels, ...tree.feeds])
		titles.set(`feed:${f.id}`, f.title);
	const walk = (categories: readonly TreeCategory[]): void => {
		for (const c of categories) {
			titles.set(`cat:${c.id}`, c.title);
			for (const f of c.feeds) titles.set(`feed:${f.id}`, f.title);
			walk(c.categories);
		}
	};
	walk(tree.categories);
	return titles;
}

/**
 * Where each category's contents start among the tree's rows (special feeds, then categories and
 * their feeds depth first, then uncategorized feeds and labels), and the rows in all: the tree
 * builds a big account's 1,000 feeds a screenful at a time, a category once the rows before it are
 * built.
 */
export function rowOffsets(tree: FeedTree | undefined): {
	categories: ReadonlyMap<number, number>;
	feeds: number;
	total: number;
} {
	const categories = new Map<number, number>();
	if (!tree) return { categories, feeds: 0, total: 0 };
	let rows = tree.special.length;
	const walk = (list: readonly TreeCategory[]): void => {
		for (const c of list) {
			rows++;
			categories.set(c.id, rows);
			walk(c.categories);
			rows += c.feeds.length;
		}
	};
	walk(tree.categories);
	const feeds = rows;
	return { categories, feeds, total: rows + tree.feeds.length + tree.labels.length };
}
