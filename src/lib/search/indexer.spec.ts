import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Headline } from '$lib/api';
import type { ListKey } from '$lib/cache/cache-reads';
import { storeList } from '$lib/cache/write';
import { openReaderDb } from '$lib/db/open';
import { evictCache } from '$lib/db/quota';
import { headline } from '$support/factories';
import {
	applyChanges,
	indexFootprint,
	resetIndexerForTests,
	searchLocal,
	type LocalSearchOptions
} from './indexer';
import { ownCacheForTests } from '$support/own-cache';
import { TEST_ACCOUNT } from '$support/factories';
import { CACHE_OWNER } from '$lib/db/keys';
import { putStored } from '$lib/db/kv';

beforeEach(async () => {
	// Written as the signed-in account's, as in the app.
	await ownCacheForTests();
	resetIndexerForTests();
});

const list: ListKey = {
	feedId: -4,
	isCat: false,
	viewMode: 'all_articles',
	orderBy: '',
	search: ''
};

const articles: Headline[] = [
	headline(1, {
		title: 'Big feed item 001 (beta)',
		content: '<p>The <b>quick</b> brown fox</p><script>secret()</script>',
		author: 'Jane Doe',
		feedId: 6,
		feedTitle: 'Testbed Big Feed',
		updated: 100,
		tags: ['Podcasts']
	}),
	headline(2, {
		title: 'Tech news 02',
		content: '<p>A brown dog, quick as ever</p>',
		author: 'John Roe',
		feedId: 1,
		feedTitle: 'Testbed Tech News',
		updated: 300,
		marked: true
	}),
	headline(3, {
		title: 'Международный обзор',
		content: '<p>Café crème and the quick brown fox again</p>',
		feedId: 3,
		feedTitle: 'Testbed International',
		updated: 200,
		unread: false
	}),
	// Cached from a list without its body: the excerpt stands for it.
	headline(7, {
		title: 'Seven',
		content: '',
		excerpt: 'An excerpt about otters&hellip;',
		updated: 50
	})
];

async function ids(query: string, options: Partial<LocalSearchOptions> = {}): Promise<number[]> {
	const results = await searchLocal({ query, ...options });
	return (await results.next(50)).map((h) => h.id);
}

describe('offline search index', () => {
	it('is built from the cached articles on first use and persisted, one record per article', async () => {
		await storeList(list, 0, articles, true);
		expect(await ids('brown')).toEqual([2, 3, 1]);
		expect(await indexFootprint()).toMatchObject({ docs: 4 });
		// Loaded again from its records (a new page): the same answers.
		resetIndexerForTests();
		expect(await ids('fox')).toEqual([3, 1]);
	});

	it('answers words, prefixes, phrases, exclusions and fields', async () => {
		await storeList(list, 0, articles, true);
		expect(await ids('quick brown')).toEqual([2, 3, 1]);
		expect(await ids('"quick brown"')).toEqual([3, 1]);
		expect(await ids('"brown quick"')).toEqual([]);
		expect(await ids('bro')).toEqual([2, 3, 1]);
		expect(await ids('fox -beta')).toEqual([3]);
		expect(await ids('fox -"crème and"')).toEqual([1]);
		expect(await ids('title:item')).toEqual([1]);
		expect(await ids('title:quick')).toEqual([]);
		expect(await ids('author:"jane doe"')).toEqual([1]);
		expect(await ids('tag:podcasts')).toEqual([1]);
		expect(await ids('testbed tech')).toEqual([2]);
		expect(await ids('cafe международныи')).toEqual([3]);
		expect(await ids('"about otters"')).toEqual([7]);
		// Script content is not text; exclusions alone select nothing.
		expect(await ids('secret')).toEqual([]);
		expect(await ids('-beta')).toEqual([]);
		expect(await ids('fox', { oldestFirst: true })).toEqual([1, 3]);
	});

	it('keeps to the scope: feeds, and what the row must be', async () => {
		await storeList(list, 0, articles, true);
		expect(await ids('brown', { feeds: new Set([1, 6]) })).toEqual([2, 1]);
		expect(await ids('brown', { keep: (h) => h.marked })).toEqual([2]);
		expect(await ids('brown', { keep: (h) => h.unread })).toEqual([2, 1]);
	});

	it('follows the hooks: stored articles are found, dropped ones are not', async () => {
		await storeList(list, 0, articles, true);
		expect(await ids('zebra')).toEqual([]);
		const zebra = headline(4, { title: 'Zebra crossing', feedId: 1, updated: 400 });
		await storeList(list, 3, [zebra], true);
		const db = await openReaderDb();
		const stored = await db.get('articles', 4);
		await applyChanges(stored ? [stored] : [], []);
		expect(await ids('zebra')).toEqual([4]);
		await db.delete('articles', 4);
		await applyChanges([], [4]);
		expect(await ids('zebra')).toEqual([]);
		expect(await indexFootprint()).toMatchObject({ docs: 4 });
	});

	it('indexes nothing for an account that signed out or was switched away from (issue 22, item 2)', async () => {
		await storeList(list, 0, articles, true);
		expect(await ids('fox')).toEqual([3, 1]);
		const db = await openReaderDb();
		const fetched = await db.get('articles', 1);
		if (!fetched) throw new Error('article 1 not cached');
		// An article fetched for the account, arriving after the sign-out wiped the cache's owner
		// (a list page in flight), then after another account took the cache.
		for (const owner of [undefined, 'second@http://tt.example/api/']) {
			await putStored(CACHE_OWNER, owner, db);
			await applyChanges([{ ...fetched, id: 9, title: 'Zebra late' }], []);
			expect(await db.get('search', 'doc:9')).toBeUndefined();
		}
		// The account's own write still goes in (the check is the owner, not the article).
		await putStored(CACHE_OWNER, TEST_ACCOUNT, db);
		resetIndexerForTests();
		await applyChanges([{ ...fetched, id: 9, title: 'Zebra late' }], []);
		expect(await db.get('search', 'doc:9')).toBeDefined();
	});

	it('mends itself from the articles store when a write went around the hooks', async () => {
		await storeList(list, 0, articles, true);
		expect(await ids('brown')).toEqual([2, 3, 1]);
		// Another tab or the worker: stored and evicted without this page's index hearing of it.
		await storeList(list, 0, [headline(5, { title: 'Brown bear', updated: 500 })], true);
		expect(await ids('brown')).toEqual([5, 2, 3, 1]);
		const db = await openReaderDb();
		await evictCache(db, 0.5);
		const left = new Set(await db.getAllKeys('articles'));
		expect(await ids('brown')).toEqual([5, 2, 3, 1].filter((id) => left.has(id)));
		expect((await indexFootprint()).docs).toBe(left.size);
	});

	it('is rebuilt when its store was cleared (another account) or written by another version', async () => {
		await storeList(list, 0, articles, true);
		expect(await ids('fox')).toEqual([3, 1]);
		const db = await openReaderDb();
		await db.clear('search');
		expect(await ids('fox')).toEqual([3, 1]);
		await db.put('search', { version: 0 }, 'meta');
		resetIndexerForTests();
		expect(await ids('fox')).toEqual([3, 1]);
		expect(await db.get('search', 'meta')).toEqual({ version: 1 });
	});

	it('re-indexes an article stored again with new text', async () => {
		await storeList(list, 0, articles, true);
		expect(await ids('fox')).toEqual([3, 1]);
		// Stored again later (a clock that moved on, not a wait).
		const later = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 1000);
		await storeList(list, 0, [{ ...articles[0]!, content: '<p>Only a cat now</p>' }], true);
		later.mockRestore();
		expect(await ids('fox')).toEqual([3]);
		expect(await ids('cat')).toEqual([1]);
	});
});
