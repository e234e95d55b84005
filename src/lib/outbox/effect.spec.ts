import { describe, expect, it } from 'vitest';
import { SPECIAL_FEED, type Counters, type FeedTree } from '$lib/api';
import type { StoredArticle } from '$lib/db/schema';
import {
	afterRead,
	countsFrom,
	isFresh,
	unreadCounter,
	unreadCounterFeeds
} from '$lib/counters/counts';
import { adjustCounters, applyToArticle } from './apply';
import { articleChange, type ArticleIntent, withinCatchup } from './effect';
import { headline } from '$support/factories';

const NOW = 1_790_000_000_000;
const HOUR = 3600;
const fresh = headline(1, { feedId: 3, updated: NOW / 1000 - 2 * HOUR });
const old = headline(2, { feedId: 3, updated: NOW / 1000 - 30 * HOUR });

const counter = unreadCounter;

function counters(): Counters {
	return {
		globalUnread: 20,
		subscribedFeeds: 1,
		feeds: [counter(3, 10)],
		special: [counter(SPECIAL_FEED.all, 20), counter(SPECIAL_FEED.fresh, 5)],
		labels: [],
		categories: [{ id: 7, unread: 10, marked: undefined }]
	};
}

const tree: FeedTree = {
	categories: [
		{
			id: 7,
			title: 'Tech',
			unread: 10,
			categories: [],
			feeds: [{ id: 3, title: 'Feed 3', unread: 10, error: undefined }]
		}
	],
	special: [],
	labels: [
		{ id: -1026, title: 'Later', unread: 0, error: undefined, fgColor: '#fff', bgColor: '#000' }
	],
	feeds: [],
	source: 'getFeedTree'
};

const stored = (h: typeof fresh): StoredArticle => ({
	...h,
	comments: '',
	hasContent: false,
	storedAt: 0,
	offline: false
});

describe('articleChange', () => {
	it('sets the flag the intent names, on the articles it names only', () => {
		const intent: ArticleIntent = { type: 'flag', field: 'starred', articleIds: [1], value: true };
		expect(articleChange(intent, fresh)).toEqual({ marked: true });
		expect(articleChange(intent, old)).toBeUndefined();
	});

	it('clears an empty note and keeps a label assigned once', () => {
		expect(articleChange({ type: 'note', articleId: 1, note: '' }, fresh)).toEqual({
			note: undefined
		});
		const later = { id: -1026, caption: 'Later', fgColor: '', bgColor: '' };
		const labelled = { ...fresh, labels: [later] };
		const assign: ArticleIntent = { type: 'label', articleIds: [1], labelId: -1026, assign: true };
		expect(articleChange(assign, labelled, () => later)).toEqual({ labels: [later] });
		expect(articleChange({ ...assign, assign: false }, labelled)).toEqual({ labels: [] });
		expect(articleChange(assign, fresh)).toEqual({
			labels: [{ id: -1026, caption: 'Label -1026', fgColor: '', bgColor: '' }]
		});
	});

	it('is what the cache applies, with the label named from the stored tree', () => {
		const article = stored(fresh);
		applyToArticle(article, { type: 'label', articleIds: [1], labelId: -1026, assign: true }, tree);
		expect(article.labels).toEqual([
			{ id: -1026, caption: 'Later', fgColor: '#fff', bgColor: '#000' }
		]);
	});
});

describe('withinCatchup', () => {
	it('keeps articles newer than the age or than what the reader saw', () => {
		const day = { type: 'catchup', feedId: 3, isCat: false, mode: '1day', at: NOW } as const;
		expect(withinCatchup(day, fresh)).toBe(false);
		expect(withinCatchup(day, old)).toBe(true);
		expect(withinCatchup({ ...day, mode: 'all', maxId: 1 }, old)).toBe(false);
	});

	it('keeps the articles it spares (marked unread, not in the reader’s list)', () => {
		const all = { type: 'catchup', feedId: 3, isCat: false, mode: 'all', at: NOW } as const;
		expect(withinCatchup(all, old)).toBe(true);
		expect(withinCatchup({ ...all, spare: [old.id] }, old)).toBe(false);
		expect(withinCatchup({ ...all, spare: [old.id + 1] }, old)).toBe(true);
	});
});

describe('the counters an article read moves', () => {
	it('moves Fresh only for a fresh article with a score of at least 0', () => {
		expect(isFresh(fresh, NOW)).toBe(true);
		expect(isFresh(old, NOW)).toBe(false);
		expect(isFresh({ ...fresh, score: -1 }, NOW)).toBe(false);
		expect(unreadCounterFeeds(fresh, NOW)).toEqual([3, SPECIAL_FEED.all, SPECIAL_FEED.fresh]);
		expect(unreadCounterFeeds(old, NOW)).toEqual([3, SPECIAL_FEED.all]);
		expect(unreadCounterFeeds({ ...fresh, feedId: null }, NOW)).toEqual([]);
	});

	it('moves the same counters in memory and in the cache', () => {
		for (const article of [fresh, old]) {
			const cached = counters();
			adjustCounters(cached, tree, article, -1, NOW);
			const memory = afterRead(countsFrom(counters()), tree, article, -1, NOW);
			expect(memory).toEqual(countsFrom(cached));
		}
		const cached = counters();
		adjustCounters(cached, tree, old, -1, NOW);
		expect(cached.special.map((c) => [c.id, c.unread])).toEqual([
			[SPECIAL_FEED.all, 19],
			[SPECIAL_FEED.fresh, 5]
		]);
		expect(cached.feeds[0]?.unread).toBe(9);
		expect(cached.categories[0]?.unread).toBe(9);
		expect(cached.globalUnread).toBe(19);
	});
});
