import { describe, expect, it } from 'vitest';
import { DEVICE_FEED, SPECIAL_FEED, type FeedTree } from '$lib/api';
import { arrangeTree, orderedSpecial, parseSpecialChoice } from './special';

const f = (id: number, title: string) => ({ id, title, unread: 0, error: undefined });
const SERVER = [
	f(SPECIAL_FEED.all, 'All articles'),
	f(SPECIAL_FEED.fresh, 'Fresh'),
	f(SPECIAL_FEED.starred, 'Starred'),
	f(SPECIAL_FEED.published, 'Published'),
	f(SPECIAL_FEED.archived, 'Archived'),
	f(SPECIAL_FEED.recentlyRead, 'Recently read')
];
const tree: FeedTree = {
	categories: [],
	special: SERVER,
	labels: [],
	feeds: [],
	source: 'getFeedTree'
};
const ids = (feeds: { id: number }[]) => feeds.map((x) => x.id);

describe('special feeds as the reader arranged them', () => {
	it('Today joins after Fresh by default; the server’s order stays', () => {
		expect(ids(orderedSpecial(SERVER, 'Today', { order: [], hidden: [] }))).toEqual([
			-4,
			-3,
			DEVICE_FEED.today,
			-1,
			-2,
			0,
			-6
		]);
	});

	it('the reader’s order first, the feeds not placed after it in the server’s order', () => {
		const order = [DEVICE_FEED.today, SPECIAL_FEED.starred];
		expect(ids(orderedSpecial(SERVER, 'Today', { order, hidden: [] }))).toEqual([
			DEVICE_FEED.today,
			-1,
			-4,
			-3,
			-2,
			0,
			-6
		]);
	});

	it('hidden feeds leave the tree; All articles cannot be hidden', () => {
		const arranged = arrangeTree(tree, 'Today', {
			order: [],
			hidden: [SPECIAL_FEED.archived, DEVICE_FEED.today, SPECIAL_FEED.all]
		});
		expect(ids(arranged.special)).toEqual([-4, -3, -1, -2, -6]);
		expect(tree.special).toHaveLength(6);
	});

	it('stored values are narrowed', () => {
		expect(parseSpecialChoice({ order: [1, 1, 2], hidden: [] })).toEqual({
			order: [1, 2],
			hidden: []
		});
		expect(parseSpecialChoice({ order: ['x'], hidden: [] })).toBeUndefined();
		expect(parseSpecialChoice('nope')).toBeUndefined();
	});
});
