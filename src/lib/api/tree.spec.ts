import { describe, expect, it } from 'vitest';
import type { FeedTreeNode } from './types';
import { treeFromNodes } from './tree';

const node = (over: Partial<FeedTreeNode>): FeedTreeNode => ({
	type: 'feed',
	id: 1,
	name: 'Feed',
	unread: 0,
	auxCounter: 0,
	icon: undefined,
	error: undefined,
	updatesDisabled: false,
	fgColor: undefined,
	bgColor: undefined,
	children: [],
	...over
});

describe('treeFromNodes', () => {
	it('marks the feeds the server has no icon for, so the tree asks for none of them', () => {
		const tree = treeFromNodes([
			node({
				type: 'category',
				id: 1,
				name: 'Tech',
				children: [
					node({ id: 1, icon: 'feed-icons/1.ico?1795367506' }),
					// tt-rss sends `icon: false` for a feed without one: parsed as undefined.
					node({ id: 2, icon: undefined })
				]
			})
		]);
		const feeds = tree.categories[0]?.feeds ?? [];
		expect(feeds.map((f) => [f.id, f.hasIcon])).toEqual([
			[1, true],
			[2, false]
		]);
	});
});
