import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { cachedArticle } from '$lib/cache/cache-reads';
import { keptFullText } from '$lib/cache/kept-full-text';
import { storeOfflineHeadlines } from '$lib/cache/kept';
import { storeArticles } from '$lib/cache/write';
import type { ExtractedArticle } from '$lib/content/extract';
import { FullTextError } from '$lib/content/full-text-error';
import { wipeAccount } from '$lib/db/device';
import { openReaderDb, resetReaderDbForTests } from '$lib/db/open';
import { dropArticles } from '$lib/db/quota';
import { ownCacheForTests } from '$support/own-cache';
import { articleBytes } from '$lib/offline/storage-measure';
import { fullTextFeeds, setFullTextFeed } from '$lib/offline/full-text-feeds';
import { headline, TEST_ACCOUNT } from '$support/factories';
import { keepFullTexts } from './full-text-step';

const PAGE = (id: number) =>
	`http://tt.example/public.php?op=pluginhandler&plugin=reader&pmethod=page&uid=2&url=${String(id)}&sig=ab`;

function extracted(id: number): ExtractedArticle {
	return {
		url: `https://news.example/${String(id)}`,
		content: `<p>The whole of article ${String(id)}.</p><img src="https://news.example/${String(id)}.png">`,
		title: `Article ${String(id)}`,
		byline: 'A. Writer',
		siteName: 'News',
		excerpt: undefined,
		lang: 'en',
		dir: undefined,
		words: 900,
		images: {
			[`https://news.example/${String(id)}.png`]: `http://tt.example/public.php?op=pluginhandler&plugin=reader&pmethod=image&url=${String(id)}&sig=cd`
		}
	};
}

beforeEach(async () => {
	globalThis.indexedDB = new IDBFactory();
	resetReaderDbForTests();
	await ownCacheForTests();
	// Feed 1 (full text) with 3 articles the plugin offers pages for, one without; feed 2 not.
	await storeOfflineHeadlines(
		[
			headline(11, { feedId: 1, content: '<p>Teaser 11</p>', pageUrl: PAGE(11), updated: 1 }),
			headline(12, { feedId: 1, content: '<p>Teaser 12</p>', pageUrl: PAGE(12), updated: 2 }),
			headline(13, { feedId: 1, content: '<p>Teaser 13</p>', pageUrl: PAGE(13), updated: 3 }),
			headline(14, { feedId: 1, content: '<p>Teaser 14</p>', updated: 4 }),
			headline(21, { feedId: 2, content: '<p>Teaser 21</p>', pageUrl: PAGE(21), updated: 5 })
		],
		{ account: TEST_ACCOUNT }
	);
	await setFullTextFeed(TEST_ACCOUNT, 1, true);
});

describe('keepFullTexts', () => {
	it('keeps the full text of the feeds set to it, and asks nothing of the others', async () => {
		const fetch = vi.fn((pageUrl: string | undefined) =>
			pageUrl === PAGE(12)
				? Promise.reject(new FullTextError('too_large'))
				: Promise.resolve(extracted(Number(new URL(pageUrl ?? '').searchParams.get('url'))))
		);
		const kept = await keepFullTexts(TEST_ACCOUNT, { fetch, now: () => 1000 });
		// Newest first; 12 failed (asked again by a later sync); 14 has no page; 21's feed is not set.
		expect(fetch.mock.calls.map(([url]) => url)).toEqual([PAGE(13), PAGE(12), PAGE(11)]);
		expect(kept.ids).toEqual([13, 11]);
		expect(kept.images).toEqual([
			expect.stringContaining('pmethod=image&url=13'),
			expect.stringContaining('pmethod=image&url=11')
		]);
		expect((await keptFullText(13))?.title).toBe('Article 13');
		expect((await keptFullText(13))?.keptAt).toBe(1000);
		expect(await keptFullText(12)).toBeUndefined();
		expect(await keptFullText(21)).toBeUndefined();

		// The next sync asks only for what is still missing.
		fetch.mockClear();
		await keepFullTexts(TEST_ACCOUNT, { fetch });
		expect(fetch.mock.calls.map(([url]) => url)).toEqual([PAGE(12)]);
	});

	it('stays with its article when the server’s copy is written again', async () => {
		await keepFullTexts(TEST_ACCOUNT, { fetch: () => Promise.resolve(extracted(11)) });
		await storeArticles([
			{
				...headline(11, { feedId: 1, content: '<p>Teaser 11</p>', pageUrl: PAGE(11) }),
				comments: ''
			}
		]);
		expect((await keptFullText(11))?.content).toContain('The whole of article 11');
	});

	it('counts in the storage budget, and goes with its article and with the account', async () => {
		const db = await openReaderDb();
		const before = articleBytes((await db.get('articles', 11))!);
		await keepFullTexts(TEST_ACCOUNT, {
			fetch: (url) => Promise.resolve(extracted(Number(new URL(url ?? '').searchParams.get('url'))))
		});
		const after = articleBytes((await db.get('articles', 11))!);
		expect(after - before).toBeGreaterThan(2 * extracted(11).content.length);

		await dropArticles(db, [11]);
		expect(await keptFullText(11)).toBeUndefined();
		expect(await cachedArticle(11)).toBeUndefined();

		await wipeAccount(TEST_ACCOUNT);
		expect(await keptFullText(13)).toBeUndefined();
		expect(await fullTextFeeds(TEST_ACCOUNT)).toEqual([]);
	});

	it('keeps nothing where no feed is set to it', async () => {
		await setFullTextFeed(TEST_ACCOUNT, 1, false);
		const fetch = vi.fn();
		expect(await keepFullTexts(TEST_ACCOUNT, { fetch })).toEqual({ ids: [], images: [] });
		expect(fetch).not.toHaveBeenCalled();
	});
});
