import { beforeEach, describe, expect, it } from 'vitest';
import type { Counters, FeedTree } from '$lib/api';
import { openReaderDb } from '$lib/db/open';
import { enqueueIntent } from '$lib/outbox/enqueue';
import { headline } from '$support/factories';
import { evictCache } from '$lib/db/quota';
import { cachedArticle, cachedList, cachedRows, cachedTree, type ListKey } from './cache-reads';
import { storeArticles, storeList, storeTree } from './write';
import { storeOfflineHeadlines } from './kept';
import { ownCacheForTests } from '$support/own-cache';

beforeEach(async () => {
	// Written as the signed-in account's, as in the app.
	await ownCacheForTests();
});

const key: ListKey = { feedId: 1, isCat: false, viewMode: 'adaptive', orderBy: '', search: '' };

const tree: FeedTree = {
	categories: [
		{
			id: 10,
			title: 'Tech',
			unread: 3,
			categories: [
				{
					id: 11,
					title: 'Web',
					unread: 1,
					categories: [],
					feeds: [{ id: 2, title: 'Web', unread: 1, error: undefined }]
				}
			],
			feeds: [{ id: 1, title: 'News', unread: 2, error: undefined }]
		}
	],
	special: [],
	labels: [
		{
			id: -1026,
			title: 'Important',
			unread: 0,
			error: undefined,
			fgColor: '#fff',
			bgColor: '#d32f2f'
		}
	],
	feeds: [],
	source: 'getFeedTree'
};

const counters = (): Counters => ({
	globalUnread: 3,
	subscribedFeeds: 2,
	feeds: [
		{
			id: 1,
			unread: 2,
			marked: 0,
			published: undefined,
			aux: undefined,
			hasImage: undefined,
			updated: undefined,
			title: undefined
		},
		{
			id: 2,
			unread: 1,
			marked: 0,
			published: undefined,
			aux: undefined,
			hasImage: undefined,
			updated: undefined,
			title: undefined
		}
	],
	special: [],
	labels: [],
	categories: [
		{ id: 10, unread: 3, marked: undefined },
		{ id: 11, unread: 1, marked: undefined }
	]
});

describe('read cache', () => {
	it('stores and returns the tree, lists (paged) and articles', async () => {
		expect(await cachedTree()).toBeUndefined();
		await storeTree(tree, counters());
		expect((await cachedTree())?.tree).toEqual(tree);
		await storeList(key, 0, [headline(1), headline(2)], false);
		await storeList(key, 2, [headline(3)], true);
		const list = await cachedList(key);
		expect(list?.headlines.map((h) => h.id)).toEqual([1, 2, 3]);
		expect(list?.complete).toBe(true);
		expect(list?.headlines[0]).toEqual(headline(1));
		// A headline without content is no article body.
		expect(await cachedArticle(1)).toBeUndefined();
		await storeArticles([{ ...headline(1), content: '<p>Body</p>', comments: '' }]);
		expect((await cachedArticle(1))?.content).toBe('<p>Body</p>');
		// A later headline without content keeps the known body.
		await storeList(key, 0, [headline(1, { title: 'New title' })], true);
		expect((await cachedArticle(1))?.title).toBe('New title');
		expect((await cachedArticle(1))?.content).toBe('<p>Body</p>');
	});

	it('keeps the known image when a headline comes without its body (tt-rss then sends none)', async () => {
		const image = 'http://feeds.test/media/gradient-320x200.png';
		await storeList(key, 0, [headline(1, { content: '<p>Body</p>', flavorImage: image })], true);
		await storeList(key, 0, [headline(1, { title: 'New title' })], true);
		expect((await cachedArticle(1))?.flavorImage).toBe(image);
		// With its body, the server's answer is the image, none included.
		await storeList(key, 0, [headline(1, { content: '<p>Body 2</p>' })], true);
		expect((await cachedArticle(1))?.flavorImage).toBeUndefined();
	});

	it('keeps the plugin’s page address when a headline comes without its body (current tt-rss)', async () => {
		// The current tt-rss runs the plugin's hook only on rows sent with their body: a list read
		// without bodies has no `reader_page`, and must not take the known one away (issue 59).
		const page =
			'http://tt.example/public.php?op=pluginhandler&plugin=reader&pmethod=page&uid=2&url=x&sig=ab';
		const link = 'http://feeds.test/fulltext/rtl-1/source.html';
		await storeList(key, 0, [headline(1, { content: '<p>Body</p>', link, pageUrl: page })], true);
		await storeList(key, 0, [headline(1, { title: 'New title', link })], true);
		expect((await cachedArticle(1))?.pageUrl).toBe(page);
		// A new link is another page: the address signed for the old one goes.
		await storeList(key, 0, [headline(1, { link: 'http://feeds.test/moved' })], true);
		expect((await cachedArticle(1))?.pageUrl).toBeUndefined();
	});

	it('keeps with each body whether it was fetched under has_sandbox', async () => {
		const body = '<p>Body</p><iframe src="https://video.test/embed"></iframe>';
		await storeArticles([{ ...headline(1), content: body, comments: '', hasSandbox: true }]);
		expect(await cachedArticle(1)).toMatchObject({ content: body, hasSandbox: true });
		// A later headline without content (fetched without has_sandbox) keeps the body's flag.
		await storeList(key, 0, [{ ...headline(1), hasSandbox: false }], true);
		expect(await cachedArticle(1)).toMatchObject({ content: body, hasSandbox: true });
		// A new body brings its own flag.
		await storeArticles([{ ...headline(1), content: body, comments: '', hasSandbox: false }]);
		expect((await cachedArticle(1))?.hasSandbox).toBe(false);
		// Bodies cached before the flag was recorded have none: rendered as without has_sandbox.
		await storeArticles([{ ...headline(2), content: body, comments: '' }]);
		expect((await cachedArticle(2))?.hasSandbox).toBeUndefined();
	});

	it('reads a first screen of a list, and the rest by id when asked', async () => {
		await storeList(key, 0, [headline(1), headline(2), headline(3), headline(4)], true);
		const first = await cachedList(key, { first: 2 });
		expect(first?.headlines.map((h) => h.id)).toEqual([1, 2]);
		expect(first?.rest).toEqual([3, 4]);
		// Not complete until the rest has been read; complete then, as the server said.
		expect(first?.complete).toBe(false);
		expect(first?.completeWithRest).toBe(true);
		expect((await cachedRows(first?.rest ?? [])).map((h) => h.id)).toEqual([3, 4]);
		// Ids whose rows are gone (evicted) are left out, not returned as holes.
		expect((await cachedRows([4, 99, 3])).map((h) => h.id)).toEqual([4, 3]);
		const whole = await cachedList(key);
		expect(whole?.rest).toEqual([]);
		expect(whole?.complete).toBe(true);
	});

	it('shows changes made offline, even when older server data is stored afterwards', async () => {
		await storeTree(tree, counters());
		await storeList(key, 0, [headline(1), headline(2)], true);
		await enqueueIntent({ type: 'flag', field: 'unread', articleIds: [1], value: false });
		await enqueueIntent({ type: 'flag', field: 'starred', articleIds: [2], value: true });
		await enqueueIntent({ type: 'label', articleIds: [2], labelId: -1026, assign: true });
		await enqueueIntent({ type: 'note', articleId: 1, note: 'mine' });
		let list = await cachedList(key);
		expect(list?.headlines[0]).toMatchObject({ unread: false, note: 'mine' });
		expect(list?.headlines[1]).toMatchObject({ marked: true });
		expect(list?.headlines[1]?.labels).toEqual([
			{ id: -1026, caption: 'Important', fgColor: '#fff', bgColor: '#d32f2f' }
		]);
		const stored = await cachedTree();
		expect(stored?.counters?.feeds[0]?.unread).toBe(1);
		expect(stored?.counters?.globalUnread).toBe(2);
		expect(stored?.counters?.categories[0]?.unread).toBe(2);
		// The server has not seen the change yet and sends the old state: pending changes win.
		await storeList(key, 0, [headline(1), headline(2)], true);
		list = await cachedList(key);
		expect(list?.headlines[0]?.unread).toBe(false);
		expect(list?.headlines[1]?.marked).toBe(true);
	});

	it('a catch-up offline marks the cached articles of that feed or category read at once', async () => {
		await storeTree(tree, counters());
		await storeList(
			key,
			0,
			[headline(1), headline(2, { feedId: 2 }), headline(3, { feedId: 1 })],
			true
		);
		await enqueueIntent({ type: 'catchup', feedId: 1, isCat: false, mode: 'all' });
		let list = await cachedList(key);
		expect(list?.headlines.map((h) => h.unread)).toEqual([false, true, false]);
		expect((await cachedTree())?.counters?.feeds[0]?.unread).toBe(0);
		// Category Tech covers Web (feed 2) too.
		await enqueueIntent({ type: 'catchup', feedId: 10, isCat: true, mode: 'all' });
		list = await cachedList(key);
		expect(list?.headlines.map((h) => h.unread)).toEqual([false, false, false]);
		// "Older than a day" leaves today's articles alone.
		const now = Date.now();
		await storeList(
			key,
			0,
			[
				headline(4, { feedId: 3, updated: Math.floor(now / 1000) - 60 }),
				headline(5, { feedId: 3, updated: Math.floor(now / 1000) - 3 * 86_400 })
			],
			true
		);
		await enqueueIntent({ type: 'catchup', feedId: 3, isCat: false, mode: '1day' }, now);
		list = await cachedList(key);
		expect(list?.headlines.map((h) => h.unread)).toEqual([true, false]);
	});

	it('eviction drops the oldest cached articles and never the outbox nor what it names', async () => {
		for (let i = 1; i <= 8; i++) await storeList({ ...key, feedId: i }, 0, [headline(i)], true);
		await enqueueIntent({ type: 'flag', field: 'unread', articleIds: [1], value: false });
		const db = await openReaderDb();
		const dropped = await evictCache(db, 0.5);
		expect(dropped).toBe(4);
		expect(await db.count('articles')).toBe(4);
		// The oldest one is named by the queued change: the next oldest go instead.
		expect(await db.get('articles', 1)).toBeDefined();
		expect(await db.get('articles', 2)).toBeUndefined();
		expect(await db.count('outbox')).toBe(1);
	});
});

describe('a batch written at once', () => {
	it('merges each record with the cached copy, and a record met twice with the first', async () => {
		await storeOfflineHeadlines([headline(1, { content: '<p>kept</p>' })]);
		await storeOfflineHeadlines(
			[
				headline(1, { marked: true }),
				headline(2, { content: '<p>two</p>' }),
				headline(2, { unread: false }),
				...Array.from({ length: 200 }, (_, i) => headline(100 + i))
			],
			{ pack: 'feed:1' }
		);
		// A row without a body keeps the body kept; the second row of 2 keeps the first's body.
		expect(await cachedArticle(1)).toMatchObject({ content: '<p>kept</p>', marked: true });
		expect(await cachedArticle(2)).toMatchObject({ content: '<p>two</p>', unread: false });
		expect(await (await openReaderDb()).count('articles')).toBe(202);
	});
});

describe('lists never opened online', () => {
	it('are made from articles made available offline, newest first, in the view mode', async () => {
		await storeOfflineHeadlines([
			headline(1, { updated: 100, unread: false }),
			headline(2, { updated: 300 }),
			headline(3, { updated: 200, marked: true }),
			headline(4, { updated: 400, feedId: 2 })
		]);
		const feed = await cachedList({ ...key, feedId: 1, viewMode: 'all_articles' });
		expect(feed?.headlines.map((h) => h.id)).toEqual([2, 3, 1]);
		// Adaptive shows only the unread ones when there are some.
		expect((await cachedList({ ...key, feedId: 1 }))?.headlines.map((h) => h.id)).toEqual([2, 3]);
		const all = await cachedList({ ...key, feedId: -4, orderBy: 'date_reverse' });
		expect(all?.headlines.map((h) => h.id)).toEqual([3, 2, 4]);
		expect((await cachedList({ ...key, feedId: -1 }))?.headlines.map((h) => h.id)).toEqual([3]);
		// Categories and searches need the server: no guess.
		expect(await cachedList({ ...key, isCat: true })).toBeUndefined();
		expect(await cachedList({ ...key, search: 'x' })).toBeUndefined();
	});

	it('keep only published articles, or those with a note, in those view modes', async () => {
		await storeOfflineHeadlines([
			headline(1, { published: true, unread: false }),
			headline(2, { note: 'read this first' }),
			headline(3, { note: undefined, unread: false }),
			headline(4, { published: true, feedId: 2, updated: 1_790_000_100 })
		]);
		const ids = async (patch: Partial<ListKey>) =>
			(await cachedList({ ...key, ...patch }))?.headlines.map((h) => h.id);
		expect(await ids({ viewMode: 'published' })).toEqual([1]);
		expect(await ids({ viewMode: 'has_note' })).toEqual([2]);
		expect(await ids({ feedId: -4, viewMode: 'published' })).toEqual([4, 1]);
	});

	it('of a tag are the cached articles carrying it, whatever its case', async () => {
		await storeOfflineHeadlines([
			headline(1, { tags: ['Web', 'pwa'] }),
			headline(2, { tags: ['tech'] }),
			headline(3, { tags: ['web'], unread: false, updated: 1_790_000_100 })
		]);
		const list = await cachedList({ ...key, feedId: 'web', viewMode: 'all_articles' });
		expect(list?.headlines.map((h) => h.id)).toEqual([3, 1]);
		expect(await cachedList({ ...key, feedId: 'nothing' })).toBeUndefined();
	});
});
