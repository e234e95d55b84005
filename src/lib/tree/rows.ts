// The feed tree's rows as the screen lists them, and which of them a virtual list builds: pure
// functions of the tree (and of the reader's choices), so the state and the component only ask.
import type { FeedTree, TreeCategory, TreeFeed } from '$lib/api';
import { m } from '$lib/i18n/m';

/** The part of the tree a row sits in: each is its own list under its own heading. */
export type TreeSection = 'special' | 'categories' | 'labels';

/** Where a feed or category row sits among its siblings, for assistive technology. */
interface Placed {
	key: string;
	section: TreeSection;
	/** 1 at the top of a section, one more per category it sits in. */
	level: number;
	/** 1-based among the rows of its parent (or section) that are shown. */
	posinset: number;
	setsize: number;
}

/** One row of the feed tree as the screen shows it: a flat list, nesting told by `level`. */
export type TreeRow =
	| { kind: 'heading'; key: string; section: TreeSection; title: string }
	| (Placed & { kind: 'feed'; feed: TreeFeed })
	| (Placed & { kind: 'cat'; category: TreeCategory; expanded: boolean });

export interface TreeRowRules {
	/** Whether a category's contents are hidden (the reader closed it). */
	collapsed: (categoryId: number) => boolean;
	/** Whether a feed is shown (the reader's "hide read feeds"). */
	showFeed: (feed: TreeFeed) => boolean;
	showCategory: (category: TreeCategory) => boolean;
}

/**
 * The tree's rows in screen order: special feeds; "Categories" with each category followed by its
 * contents (its categories, then its feeds; none while it is collapsed) and then the uncategorized
 * feeds; "Labels" when the server has any. The tree renders only the rows near its viewport, so a
 * big account's 1,000 feeds are a few dozen elements on screen, not 7,000.
 */
export function treeRows(tree: FeedTree | undefined, rules: TreeRowRules): TreeRow[] {
	const rows: TreeRow[] = [];
	if (!tree) return rows;
	const feedRows = (feeds: readonly TreeFeed[], section: TreeSection, level: number): void => {
		const shown = feeds.filter(rules.showFeed);
		shown.forEach((feed, i) => {
			rows.push({
				kind: 'feed',
				key: `feed:${feed.id}`,
				feed,
				section,
				level,
				posinset: i + 1,
				setsize: shown.length
			});
		});
	};
	// One level of a category (or of the top): its categories first, then its feeds, one set.
	const branch = (
		categories: readonly TreeCategory[],
		feeds: readonly TreeFeed[],
		level: number
	): void => {
		const shownCategories = categories.filter(rules.showCategory);
		const shownFeeds = feeds.filter(rules.showFeed);
		const setsize = shownCategories.length + shownFeeds.length;
		let posinset = 0;
		for (const category of shownCategories) {
			const expanded = !rules.collapsed(category.id);
			rows.push({
				kind: 'cat',
				key: `cat:${category.id}`,
				category,
				expanded,
				section: 'categories',
				level,
				posinset: ++posinset,
				setsize
			});
			if (expanded) branch(category.categories, category.feeds, level + 1);
		}
		for (const feed of shownFeeds) {
			rows.push({
				kind: 'feed',
				key: `feed:${feed.id}`,
				feed,
				section: 'categories',
				level,
				posinset: ++posinset,
				setsize
			});
		}
	};
	feedRows(tree.special, 'special', 1);
	rows.push({
		kind: 'heading',
		key: 'heading:categories',
		section: 'categories',
		title: m.tree_categories()
	});
	branch(tree.categories, tree.feeds, 1);
	if (tree.labels.length > 0) {
		rows.push({
			kind: 'heading',
			key: 'heading:labels',
			section: 'labels',
			title: m.tree_labels()
		});
		feedRows(tree.labels, 'labels', 1);
	}
	return rows;
}

/** Which rows a virtual list builds, and how many rows' height stands in for the rest. */
export interface RowWindow {
	/** Row indexes to build, in order. */
	indices: number[];
	/** Rows not built above the first built one, and below the last. */
	above: number;
	below: number;
}

/**
 * The rows in view and `overscan` more on each side; `keep` (the focused row) is built wherever it
 * is, so scrolling never takes the reader's focus away. Kept out of view, it stands in the place
 * of the row next to the built ones (hidden by the overscan), so the heights still add up.
 */
export function rowWindow(
	count: number,
	view: { top: number; height: number; rowHeight: number; overscan: number },
	keep = -1
): RowWindow {
	const { top, height, rowHeight, overscan } = view;
	const first = Math.min(count, Math.max(0, Math.floor(top / rowHeight) - overscan));
	const last = Math.min(count, Math.max(first, Math.ceil((top + height) / rowHeight) + overscan));
	const before = keep >= 0 && keep < first;
	const after = keep >= last && keep < count;
	const indices: number[] = before ? [keep] : [];
	for (let i = first; i < last; i++) indices.push(i);
	if (after) indices.push(keep);
	return { indices, above: first - (before ? 1 : 0), below: count - last - (after ? 1 : 0) };
}
