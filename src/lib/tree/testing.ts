/** Tree specs' builders: a feed and a category by id, titled after it. */
import type { TreeCategory, TreeFeed } from '$lib/api';

export const feed = (id: number): TreeFeed => ({
	id,
	title: `Feed ${id}`,
	unread: 0,
	error: undefined
});

export const cat = (
	id: number,
	feeds: number[],
	categories: TreeCategory[] = []
): TreeCategory => ({
	id,
	title: `Category ${id}`,
	unread: 0,
	categories,
	feeds: feeds.map(feed)
});
