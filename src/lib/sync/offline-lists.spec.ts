import { beforeEach, describe, expect, it } from 'vitest';
import { cachedList, type ListKey } from '$lib/cache/cache-reads';
import { storeOfflineHeadlines } from '$lib/cache/kept';
import { headline } from '$support/factories';
import { ownCacheForTests } from '$support/own-cache';

beforeEach(async () => {
	// Written as the signed-in account's, as in the app.
	await ownCacheForTests();
});

const key: ListKey = { feedId: 1, isCat: false, viewMode: 'all_articles', orderBy: '', search: '' };
const ids = async (k: Partial<ListKey>): Promise<number[] | undefined> =>
	(await cachedList({ ...key, ...k }))?.headlines.map((h) => h.id);
const LATER = { id: -1027, caption: 'Later', fgColor: '#000000', bgColor: '#ffd54f' };

describe('offline lists of what the sync kept, never opened online', () => {
	it('honour every view mode as the server does, Updated included', async () => {
		await storeOfflineHeadlines([
			headline(1, { updated: 100, unread: false, isUpdated: true }),
			headline(2, { updated: 200, published: true }),
			headline(3, { updated: 300, note: 'Read this first' })
		]);
		// tt-rss's query has no clause for "updated" (api/view-mode.ts): every article, as online.
		expect(await ids({ viewMode: 'updated' })).toEqual([3, 2, 1]);
		expect(await ids({ viewMode: 'published' })).toEqual([2]);
		expect(await ids({ viewMode: 'has_note' })).toEqual([3]);
		expect(await ids({ viewMode: 'unread' })).toEqual([3, 2]);
	});

	it('show a label and a category kept as an offline pack', async () => {
		await storeOfflineHeadlines([headline(4, { labels: [LATER] }), headline(5)]);
		await storeOfflineHeadlines([headline(6, { feedId: 9 })], { pack: 'cat:3' });
		expect(await ids({ feedId: -1027 })).toEqual([4]);
		expect(await ids({ feedId: 3, isCat: true })).toEqual([6]);
		// Another category: the server has to say what is in it.
		expect(await ids({ feedId: 4, isCat: true })).toBeUndefined();
	});
});
