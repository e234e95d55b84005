/**
 * Walks of the normalised feed tree (api/types FeedTree). Pure; the lowest layer above api: every
 * module that needs "all feeds" or "the feed with this id" asks here instead of walking on its own.
 */
import type { FeedTree, TreeCategory, TreeFeed } from '$lib/api';

/** Every feed of a category and of the categories below it, in tree order. */
export function feedsBelow(category: TreeCategory): TreeFeed[] {
	return [...category.feeds, ...category.categories.flatMap(feedsBelow)];
}

/** Every real feed of the tree (categorised and not), without the special and label feeds. */
export function realFeeds(tree: FeedTree): TreeFeed[] {
	return [...tree.categories.flatMap(feedsBelow), ...tree.feeds].filter((feed) => feed.id > 0);
}

/** The real feed with this id, if the tree has it. */
export function findFeed(tree: FeedTree | undefined, feedId: number): TreeFeed | undefined {
	return tree ? realFeeds(tree).find((feed) => feed.id === feedId) : undefined;
}

/** The first category (depth first, nested ones included) that `wanted` accepts. */
export function findCategory(
	categories: readonly TreeCategory[],
	wanted: (c: TreeCategory) => boolean
): TreeCategory | undefined {
	for (const c of categories) {
		if (wanted(c)) return c;
		const inner = findCategory(c.categories, wanted);
		if (inner) return inner;
	}
	return undefined;
}

/** The category a feed is filed in (0 = Uncategorized), if the tree knows the feed. */
export function categoryOfFeed(tree: FeedTree | undefined, feedId: number): number | undefined {
	return findCategory(tree?.categories ?? [], (c) => c.feeds.some((f) => f.id === feedId))?.id;
}

/** Feed ids below a category (nested categories included); undefined if the tree lacks it. */
export function feedsInCategory(
	tree: FeedTree | undefined,
	catId: number
): Set<number> | undefined {
	const cat = findCategory(tree?.categories ?? [], (c) => c.id === catId);
	return cat ? new Set(feedsBelow(cat).map((f) => f.id)) : undefined;
}

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

/** Category id → the ids of the categories it sits in, innermost first (none at the top). */
export function categoryParentsOf(tree: FeedTree | undefined): ReadonlyMap<number, number[]> {
	const parents = new Map<number, number[]>();
	const walk = (categories: readonly TreeCategory[], chain: number[]): void => {
		for (const c of categories) {
			parents.set(c.id, chain);
			walk(c.categories, [c.id, ...chain]);
		}
	};
	walk(tree?.categories ?? [], []);
	return parents;
}

/** A category and every category below it, in tree order. */
export function categoriesBelow(category: TreeCategory): TreeCategory[] {
	return [category, ...category.categories.flatMap(categoriesBelow)];
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

/** Real categories, flattened in tree order with their depth (0 at the top). */
export function categoriesWithDepth(
	tree: FeedTree | undefined
): { id: number; title: string; depth: number }[] {
	const out: { id: number; title: string; depth: number }[] = [];
	const walk = (categories: readonly TreeCategory[], depth: number): void => {
		for (const c of categories) {
			if (c.id > 0) out.push({ id: c.id, title: c.title, depth });
			walk(c.categories, depth + 1);
		}
	};
	walk(tree?.categories ?? [], 0);
	return out;
}
