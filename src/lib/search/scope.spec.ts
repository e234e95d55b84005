import { describe, expect, it } from 'vitest';
import { DEVICE_FEED, type FeedTree } from '$lib/api';
import { headline } from '$support/factories';
import { localScope } from './local-scope';
import { searchTarget, type ScopeQuery } from './scope';

const tree: FeedTree = {
	categories: [
		{
			id: 10,
			title: 'Tech',
			unread: 0,
			categories: [
				{
					id: 11,
					title: 'Web',
					unread: 0,
					categories: [],
					feeds: [{ id: 2, title: 'Web', unread: 0, error: undefined }]
				}
			],
			feeds: [{ id: 1, title: 'News', unread: 0, error: undefined }]
		}
	],
	special: [],
	labels: [],
	feeds: [],
	source: 'getFeedTree'
};

const q = (patch: Partial<ScopeQuery>): ScopeQuery => ({
	kind: 'feed',
	id: '1',
	viewMode: 'all_articles',
	orderBy: '',
	searchMode: 'this_feed',
	...patch
});

describe('localScope', () => {
	it('is the open feed, or a category with the ones inside it, or everything', () => {
		expect(localScope(q({}), tree).feeds).toEqual(new Set([1]));
		expect(localScope(q({ kind: 'cat', id: '10' }), tree).feeds).toEqual(new Set([1, 2]));
		expect(localScope(q({ kind: 'cat', id: '11' }), tree).feeds).toEqual(new Set([2]));
		expect(localScope(q({ searchMode: 'all_feeds' }), tree)).toEqual({ oldestFirst: false });
		expect(localScope(q({ id: '-4' }), tree)).toEqual({ oldestFirst: false });
	});

	it('"this category" from a feed is the feed\'s category with the ones inside it', () => {
		expect(localScope(q({ searchMode: 'this_cat' }), tree).feeds).toEqual(new Set([1, 2]));
		expect(localScope(q({ id: '2', searchMode: 'this_cat' }), tree).feeds).toEqual(new Set([2]));
		// A feed the tree does not know: the feed itself, never more.
		expect(localScope(q({ id: '9', searchMode: 'this_cat' }), tree).feeds).toEqual(new Set([9]));
		expect(searchTarget(q({ searchMode: 'this_cat' }), tree)).toEqual({ kind: 'cat', id: '10' });
		expect(searchTarget(q({ searchMode: 'all_feeds' }), tree)).toEqual({ kind: 'feed', id: '-4' });
		expect(searchTarget(q({ kind: 'cat', id: '11', searchMode: 'this_cat' }), tree)).toEqual({
			kind: 'cat',
			id: '11'
		});
	});

	it('keeps the rows a special feed, a label, a tag or the view mode would show', () => {
		const keep = (patch: Partial<ScopeQuery>) => localScope(q(patch), tree).keep;
		const starred = headline(1, { marked: true, unread: false });
		const labelled = headline(2, {
			labels: [{ id: -1026, caption: 'Important', fgColor: '', bgColor: '' }],
			tags: ['Audio']
		});
		expect(keep({ id: '-1' })?.(starred)).toBe(true);
		expect(keep({ id: '-1' })?.(labelled)).toBe(false);
		expect(keep({ id: '-1026' })?.(labelled)).toBe(true);
		expect(keep({ id: '-1026' })?.(starred)).toBe(false);
		expect(keep({ kind: 'tag', id: 'audio' })?.(labelled)).toBe(true);
		expect(keep({ viewMode: 'unread' })?.(starred)).toBe(false);
		expect(keep({ viewMode: 'unread', id: '-1026' })?.(labelled)).toBe(true);
		expect(keep({ viewMode: 'adaptive' })).toBeUndefined();
		expect(localScope(q({ orderBy: 'date_reverse' }), tree).oldestFirst).toBe(true);
	});

	it("Today keeps the articles dated since the reader's local midnight, not a rolling 24 h", () => {
		// 09:00 local time: last evening (10 h ago) is not today; early this morning is.
		const now = new Date(2026, 10, 26, 9, 0, 0).getTime();
		const keep = localScope(q({ id: String(DEVICE_FEED.today) }), tree, now).keep;
		const at = (ms: number) => headline(1, { updated: Math.floor(ms / 1000) });
		expect(keep?.(at(now - 10 * 3600_000))).toBe(false);
		expect(keep?.(at(new Date(2026, 10, 26, 0, 0, 0).getTime()))).toBe(true);
		expect(keep?.(at(now - 3600_000))).toBe(true);
		expect(keep?.(at(new Date(2026, 10, 25, 23, 59, 59).getTime()))).toBe(false);
		// In the unread view, read ones of today are left out.
		const unread = localScope(q({ id: String(DEVICE_FEED.today), viewMode: 'unread' }), tree, now);
		expect(unread.keep?.({ ...at(now), unread: false })).toBe(false);
	});
});
