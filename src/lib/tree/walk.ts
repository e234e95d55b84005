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
