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
