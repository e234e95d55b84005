/**
 * One normalised feed tree, built either from getFeedTree (level 5+) or from getCategories +
 * getFeeds on older servers. Pure functions: the client does the fetching.
 */
import type {
	Category,
	Feed,
	Label,
	FeedTree,
	FeedTreeNode,
	TreeCategory,
	TreeFeed
} from './types';
import { LABELS_CATEGORY, SPECIAL_CATEGORY } from './feed-ids';

export { LABELS_CATEGORY, SPECIAL_CATEGORY };

function treeFeed(node: FeedTreeNode): TreeFeed {
	const feed: TreeFeed = { id: node.id, title: node.name, unread: node.unread, error: node.error };
	if (node.fgColor !== undefined) feed.fgColor = node.fgColor;
	if (node.bgColor !== undefined) feed.bgColor = node.bgColor;
	// tt-rss sends every real feed's icon path, or false when it has none (Feeds::_get_icon).
	if (node.type === 'feed' && node.id > 0) feed.hasIcon = node.icon !== undefined;
	return feed;
}

function treeCategory(node: FeedTreeNode): TreeCategory {
	const category: TreeCategory = {
		id: node.id,
		title: node.name,
		unread: node.unread,
		categories: [],
		feeds: []
	};
	for (const child of node.children) {
		if (child.type === 'category') category.categories.push(treeCategory(child));
		else category.feeds.push(treeFeed(child));
	}
	return category;
}

/** From getFeedTree's top-level nodes. Feeds at the top (categories disabled) go to `feeds`. */
export function treeFromNodes(nodes: readonly FeedTreeNode[]): FeedTree {
	const tree: FeedTree = {
		categories: [],
		special: [],
		labels: [],
		feeds: [],
		source: 'getFeedTree'
	};
	for (const node of nodes) {
		if (node.type === 'feed') {
			tree.feeds.push(treeFeed(node));
		} else if (node.id === SPECIAL_CATEGORY) {
			tree.special.push(...node.children.filter((c) => c.type === 'feed').map(treeFeed));
		} else if (node.id === LABELS_CATEGORY) {
			tree.labels.push(...node.children.filter((c) => c.type === 'feed').map(treeFeed));
		} else {
			tree.categories.push(treeCategory(node));
		}
	}
	return tree;
}

/**
 * From getCategories (all categories) + getFeeds(cat_id -4: special feeds, labels and real
 * feeds) + the parent of each nested category (found with getFeeds include_nested; empty when
 * the server does not nest).
 */
export function treeFromLists(
	categories: readonly Category[],
	feeds: readonly Feed[],
	parentOf: ReadonlyMap<number, number>,
	labels: readonly Label[] = []
): FeedTree {
	const byId = new Map<number, TreeCategory>();
	for (const c of categories) {
		if (c.id === SPECIAL_CATEGORY || c.id === LABELS_CATEGORY) continue;
		byId.set(c.id, { id: c.id, title: c.title, unread: c.unread, categories: [], feeds: [] });
	}
	const tree: FeedTree = {
		categories: [],
		special: [],
		labels: [],
		feeds: [],
		source: 'getCategories+getFeeds'
	};
	for (const category of byId.values()) {
		const parent = parentOf.get(category.id);
		const parentNode = parent === undefined ? undefined : byId.get(parent);
		if (parentNode && parentNode !== category) parentNode.categories.push(category);
		else tree.categories.push(category);
	}
	for (const feed of feeds) {
		if (feed.isCategory) continue;
		const item: TreeFeed = {
			id: feed.id,
			title: feed.title,
			unread: feed.unread,
			error: feed.lastError
		};
		if (feed.id > 0) item.hasIcon = feed.hasIcon;
		if (feed.catId === LABELS_CATEGORY) {
			const label = labels.find((l) => l.id === feed.id);
			if (label) {
				item.fgColor = label.fgColor;
				item.bgColor = label.bgColor;
			}
			tree.labels.push(item);
		} else if (feed.catId === SPECIAL_CATEGORY || feed.id <= 0) tree.special.push(item);
		else {
			const home = byId.get(feed.catId ?? 0);
			if (home) home.feeds.push(item);
			else tree.feeds.push(item);
		}
	}
	return tree;
}
