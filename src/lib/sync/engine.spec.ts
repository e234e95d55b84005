import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cachedArticle } from '$lib/cache/cache-reads';
import { storeOfflineHeadlines } from '$lib/cache/kept';
import type { Headline } from '$lib/api';
import type { Intent } from '$lib/outbox/intent';
import { openReaderDb } from '$lib/db/open';
import { syncNow } from './engine';
import { savePacks, loadSyncState } from './state';
import { body, proxied, syncServer } from '$support/sync-server';
import { recordedLevels } from '$support/fake-fetch';
import { ownCacheForTests } from '$support/own-cache';
import { SENT_HORIZON } from '$lib/outbox/sent-log';
import { recordSent } from '$lib/outbox/sent-log-write';
import { putStored } from '$lib/db/kv';
import { CACHE_OWNER } from '$lib/db/keys';

beforeEach(async () => {
	// Written as the signed-in account's, as in the app.
	await ownCacheForTests();
});

const ACCOUNT = 'reader@http://tt.example/api/';

async function stored(id: number) {
	const db = await openReaderDb();
	return db.get('articles', id);
}

describe.each(recordedLevels)('sync engine (%s server shapes)', (level) => {
	it('first sync keeps every unread article with its body; an idle sync sends one getCounters', async () => {
		const server = syncServer(level);
		server.arrive(250);
		server.article(3).unread = false;
		const first = await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500 });
		expect(first.status).toBe('synced');
		expect((await cachedArticle(250))?.content).toBe(body(250));
		expect(await stored(3)).toBeUndefined();
		expect((await stored(1))?.offline).toBe(true);
		expect((await loadSyncState(ACCOUNT)).newestId).toBe(250);
		server.takeOps();

		const idle = await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500 });
		expect(idle.status).toBe('unchanged');
		// The feeds' "updated" times moved; no article did.
		expect(server.takeOps()).toEqual(['getCounters']);
		expect((await loadSyncState(ACCOUNT)).lastSyncAt).toBe(
			idle.status === 'unchanged' ? idle.at : 0
		);
	});

	it('an arrival after a read of the reader’s own, which leave the counters as they were, is fetched', async () => {
		const server = syncServer(level);
		server.arrive(10);
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500, now: () => 1_000 });
		// The reader reads article 3 here; the server confirms it; then one article arrives.
		server.article(3).unread = false;
		const intent: Intent = { type: 'flag', field: 'unread', articleIds: [3], value: false };
		await recordSent(
			[{ key: 'flag:unread:3', articleId: 3, intent, account: ACCOUNT, createdAt: 1, attempts: 0 }],
			1_500
		);
		const [arrived] = server.arrive(1);
		server.takeOps();
		const result = await syncNow({
			client: server.client,
			account: ACCOUNT,
			articleCount: 500,
			now: () => 2_000
		});
		expect(result.status).toBe('synced');
		expect(server.takeOps()[1]).toBe('getHeadlines');
		expect((await cachedArticle(arrived ?? 0))?.content).toBe(body(arrived ?? 0));
		// Nothing confirmed since: the next idle sync trusts its counters again.
		server.takeOps();
		expect(
			(
				await syncNow({
					client: server.client,
					account: ACCOUNT,
					articleCount: 500,
					now: () => 3_000
				})
			).status
		).toBe('unchanged');
		expect(server.takeOps()).toEqual(['getCounters']);
	});

	it('new articles come by since_id with bodies, without reading the unread set again', async () => {
		const server = syncServer(level);
		server.arrive(10);
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500 });
		server.takeOps();
		const ids = server.arrive(200, 2);
		const result = await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500 });
		// A full page asks for the next one, which comes back empty.
		expect(server.takeOps()).toEqual(['getCounters', 'getHeadlines', 'getHeadlines']);
		expect(result.status === 'synced' && result.changes.newArticles).toBe(true);
		expect((await cachedArticle(ids.at(-1) ?? 0))?.content).toBe(body(ids.at(-1) ?? 0));
	});

	it('state changed elsewhere reaches the cached copies; a change still queued wins', async () => {
		const server = syncServer(level);
		server.arrive(20);
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500 });
		// Another device: 5 read, 6 starred, 7 published, 8 read; this device, offline: 8 unread.
		server.article(5).unread = false;
		server.article(6).marked = true;
		server.article(7).published = true;
		server.article(8).unread = false;
		const db = await openReaderDb();
		await putStored(CACHE_OWNER, ACCOUNT, db);
		await db.add('outbox', {
			key: 'flag:unread:8',
			articleId: 8,
			intent: { type: 'flag', field: 'unread', articleIds: [8], value: true },
			createdAt: Date.now(),
			attempts: 0,
			account: ACCOUNT
		});
		const result = await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500 });
		expect(result.status).toBe('synced');
		expect((await stored(5))?.unread).toBe(false);
		expect((await stored(6))?.marked).toBe(true);
		expect((await stored(7))?.published).toBe(true);
		expect((await stored(8))?.unread).toBe(true);
		// Bodies kept through a state-only read.
		expect((await stored(6))?.content).toBe(body(6));
	});

	it('keeps the newest articles of a pack added or changed since the last sync', async () => {
		const server = syncServer(level);
		server.arrive(5, 1);
		const podcast = server.arrive(30, 9);
		for (const id of podcast) server.article(id).unread = false;
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500 });
		await savePacks(ACCOUNT, [
			{ id: 'feed:9', kind: 'feed', feedId: 9, title: 'Podcasts', limit: 10, enclosures: false }
		]);
		server.takeOps();
		// No counter moved, but the new pack is due.
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500 });
		expect(server.takeOps()).toContain('getHeadlines');
		const newest = podcast.at(-1) ?? 0;
		expect((await stored(newest))?.packs).toEqual(['feed:9']);
		expect((await stored(newest))?.content).toBe(body(newest));
		expect(await stored(podcast[0] ?? 0)).toBeUndefined();

		// A smaller limit: articles leaving the pack lose their membership.
		await savePacks(ACCOUNT, [
			{ id: 'feed:9', kind: 'feed', feedId: 9, title: 'Podcasts', limit: 3, enclosures: false }
		]);
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500 });
		expect((await stored(newest))?.packs).toEqual(['feed:9']);
		expect((await stored(newest - 5))?.packs).toBeUndefined();
		server.takeOps();
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500 });
		expect(server.takeOps()).toEqual(['getCounters']);
	});

	it("keeps the enclosures of a pack's articles once the pack keeps them, and only then", async () => {
		const server = syncServer(level);
		const podcast = server.arrive(4, 9);
		for (const id of podcast) server.enclose(id, `http://feeds.test/media/${id}.wav`);
		server.arrive(2, 1);
		const asked: string[][] = [];
		const cacheEnclosures = (urls: string[]): Promise<void> => {
			asked.push(urls);
			return Promise.resolve();
		};
		const pack = { id: 'feed:9', kind: 'feed', feedId: 9, title: 'Podcasts', limit: 2 } as const;
		await savePacks(ACCOUNT, [{ ...pack, enclosures: false }]);
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500, cacheEnclosures });
		expect(asked).toEqual([]);

		// Turning enclosures on makes the pack due, though no counter moved.
		await savePacks(ACCOUNT, [{ ...pack, enclosures: true }]);
		server.takeOps();
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500, cacheEnclosures });
		expect(server.takeOps()).toContain('getHeadlines');
		const newest = podcast.slice(-2).map((id) => `http://feeds.test/media/${id}.wav`);
		expect(asked).toEqual([newest]);
	});

	it("keeps as many unread articles as the reader's article count, and fills up when it grows", async () => {
		const server = syncServer(level);
		const ids = server.arrive(30);
		const count = async (): Promise<number> => (await openReaderDb()).count('articles');
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 10 });
		expect(await count()).toBe(10);
		// The newest ones (the server's default order is newest first).
		expect(await stored(ids.at(-1) ?? 0)).toBeDefined();
		expect(await stored(ids[0] ?? 0)).toBeUndefined();
		// A larger count: compared in full again, though no counter moved.
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 25 });
		expect(await count()).toBe(25);
	});

	it('writes nothing once the cache belongs to another account (a sign-in meanwhile)', async () => {
		const server = syncServer(level);
		server.arrive(3);
		const db = await openReaderDb();
		await putStored(CACHE_OWNER, 'someone-else@http://tt.example/api/', db);
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500 });
		expect(await db.count('articles')).toBe(0);
	});

	it('fetches bodies of kept articles it has only as rows', async () => {
		const server = syncServer(level);
		server.arrive(3);
		server.article(2).marked = true;
		server.article(2).unread = false;
		const db = await openReaderDb();
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500 });
		const starred = await db.get('articles', 2);
		expect(starred?.content).toBe(body(2));
		expect(starred?.marked).toBe(true);
	});
});

describe.each(recordedLevels)('an answer dated by its own request (%s server shapes)', (level) => {
	it('a page asked after the sent log dropped an entry takes the server state; one asked before keeps the cached copy', async () => {
		const server = syncServer(level);
		server.arrive(250);
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500 });
		// Starred elsewhere, all 250: the next sync reads the Starred set in two pages (200 + 50).
		for (let id = 1; id <= 250; id++) server.article(id).marked = true;
		server.takeOps();
		// Ten minutes pass with each getHeadlines (the first asks for new articles: none); the sent
		// log dropped a confirmation made 15 minutes after the sync began: an answer asked before
		// that may miss a change of the reader's the log no longer names, one asked after cannot.
		const start = Date.now();
		let pages = 0;
		const now = (): number => {
			pages += server.takeOps().filter((op) => op === 'getHeadlines').length;
			return start + pages * 600_000;
		};
		const db = await openReaderDb();
		await putStored(SENT_HORIZON, start + 900_000, db);
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500, now });
		const marked = (await db.getAll('articles')).filter((a) => a.marked).length;
		// The first page (dated by the sync's start) keeps its cached state; the second, asked
		// after the horizon, is the server's. Dated by the sync's start, none would be.
		expect(marked).toBe(50);
	});
});

describe.each(recordedLevels)('pages pipelined (%s server shapes)', (level) => {
	it('asks for the next page before the one before it is written; writes in the order asked', async () => {
		const server = syncServer(level);
		server.arrive(450);
		// When each page's write is reported: rows stored, getHeadlines sent by then.
		const written: [number, number][] = [];
		await syncNow({
			client: server.client,
			account: ACCOUNT,
			articleCount: 500,
			onProgress: ({ phase, stored }) => {
				const asked = server.sentOps().filter((op) => op === 'getHeadlines').length;
				if (phase === 'new' && stored > (written.at(-1)?.[0] ?? 0)) written.push([stored, asked]);
			}
		});
		// Pages of 200 (the server's largest), newest first, each after the first beginning on the
		// row the one before it ended with (199 new rows: a shift of the list would show); the
		// counters said 450 unread, so the second and third pages' requests were both out before
		// the first page's write was done. The last page is short: nothing is asked for after it.
		expect(written).toEqual([
			[200, 3],
			[399, 3],
			[450, 3]
		]);
		expect((await loadSyncState(ACCOUNT)).newestId).toBe(450);
		expect((await stored(1))?.content).toBe(body(1));
	});

	it('a page asked for while the page before it was written is dated by its own request', async () => {
		const server = syncServer(level);
		server.arrive(250);
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500 });
		for (let id = 1; id <= 250; id++) server.article(id).marked = true;
		// Time passes with the writes only: 10 minutes per 200 rows written. The sent log dropped
		// a confirmation made 5 minutes after the sync began.
		const start = Date.now();
		let rows = 0;
		const now = (): number => start + rows * 3000;
		const db = await openReaderDb();
		await putStored(SENT_HORIZON, start + 300_000, db);
		await syncNow({
			client: server.client,
			account: ACCOUNT,
			articleCount: 500,
			now,
			onProgress: ({ stored: n }) => {
				rows = n;
			}
		});
		// The Starred set's second page was asked for before the first was written (at the
		// start, before the horizon): like the first, it keeps the cached state. Dated when the
		// first page's write finished (10 minutes, after the horizon), its 50 would be starred.
		const marked = (await db.getAll('articles')).filter((a) => a.marked).length;
		expect(marked).toBe(0);
	});

	it('a cancelled sync stops paging and saves nothing of its bookkeeping', async () => {
		const server = syncServer(level);
		server.arrive(1000);
		const controller = new AbortController();
		const sync = syncNow({
			client: server.client,
			account: ACCOUNT,
			articleCount: 1000,
			signal: controller.signal,
			onProgress: ({ stored }) => {
				if (stored >= 200) controller.abort(new Error('signed out'));
			}
		});
		await expect(sync).rejects.toThrow();
		// The first page and the two already asked for beside each other (the counters said 1,000);
		// nothing after the cancel.
		expect(server.takeOps().filter((op) => op === 'getHeadlines')).toHaveLength(3);
		expect((await loadSyncState(ACCOUNT)).lastSyncAt).toBeUndefined();
		expect((await db()).length).toBe(200);
	});
});

describe.each(recordedLevels)('images after the text (%s server shapes)', (level) => {
	it('the text is stored, its bookkeeping saved and the screens told before any image is asked for', async () => {
		const server = syncServer(level);
		server.arrive(30);
		const events: string[] = [];
		const outcome = await syncNow({
			client: server.client,
			account: ACCOUNT,
			articleCount: 500,
			onSynced: async (done) => {
				events.push(
					`synced ${done.status} ${(await loadSyncState(ACCOUNT)).lastSyncAt === (done.status === 'synced' ? done.at : -1)}`
				);
			},
			cacheImages: async (urls) => {
				events.push(`images ${urls.length} ${(await db()).length}`);
			}
		});
		expect(outcome.status).toBe('synced');
		expect(events).toEqual(['synced synced true', 'images 30 30']);
	});

	it('where the Reader plugin signs images, only its proxy addresses are asked for (issue 55)', async () => {
		const server = syncServer(level);
		server.signImages();
		const ids = server.arrive(5);
		const asked: string[] = [];
		await syncNow({
			client: server.client,
			account: ACCOUNT,
			articleCount: 500,
			cacheImages: (urls) => {
				asked.push(...urls);
				return Promise.resolve();
			}
		});
		expect(server.client.imageProxy).toBe(true);
		// The image it signed, through the proxy; the one it did not sign, not at all.
		expect([...asked].sort()).toEqual(
			ids.map((id) => proxied(`http://feeds.test/img/${id}.png`)).sort()
		);
	});

	it('images cut short (the page went away) are asked for again by the next sync, though nothing changed', async () => {
		const server = syncServer(level);
		server.arrive(30);
		const asked: number[] = [];
		const options = {
			client: server.client,
			account: ACCOUNT,
			articleCount: 500
		};
		await expect(
			syncNow({
				...options,
				cacheImages: () => Promise.reject(new DOMException('The page went away', 'AbortError'))
			})
		).rejects.toThrow('went away');
		expect((await loadSyncState(ACCOUNT)).imagesPending).toBe(true);
		const keep = (urls: string[]): Promise<void> => {
			asked.push(urls.length);
			return Promise.resolve();
		};
		const again = await syncNow({ ...options, cacheImages: keep });
		expect(again.status).toBe('unchanged');
		expect(asked).toEqual([30]);
		expect((await loadSyncState(ACCOUNT)).imagesPending).toBeUndefined();
		// Once they were asked for, an idle sync is one request again and asks for no image.
		server.takeOps();
		await syncNow({ ...options, cacheImages: keep });
		expect(asked).toEqual([30]);
		expect(server.takeOps()).toEqual(['getCounters']);
	});

	it('images cut short are found again by their articles’ ids: other kept articles are not read', async () => {
		const server = syncServer(level);
		server.arrive(30);
		const options = { client: server.client, account: ACCOUNT, articleCount: 500 };
		await expect(
			syncNow({
				...options,
				cacheImages: () => Promise.reject(new DOMException('The page went away', 'AbortError'))
			})
		).rejects.toThrow('went away');
		const pending = (await loadSyncState(ACCOUNT)).imagesPendingIds ?? [];
		expect(pending).toHaveLength(30);
		// A kept article whose images were asked for by an earlier sync, not this one.
		const earlier: Headline = {
			...(await cachedHeadline(pending[0] ?? 0)),
			id: 9_999,
			content: body(9_999)
		};
		await storeOfflineHeadlines([earlier], { account: ACCOUNT });
		expect((await cachedArticle(9_999))?.content).toBe(body(9_999));
		const asked: string[][] = [];
		await syncNow({
			...options,
			cacheImages: (urls) => {
				asked.push(urls);
				return Promise.resolve();
			}
		});
		expect(asked.map((urls) => urls.length)).toEqual([30]);
		const after = await loadSyncState(ACCOUNT);
		expect(after.imagesPending).toBeUndefined();
		expect(after.imagesPendingIds).toBeUndefined();
	});
});

async function cachedHeadline(id: number): Promise<Headline> {
	const stored = await (await openReaderDb()).get('articles', id);
	if (!stored) throw new Error(`article ${id} is not cached`);
	return stored;
}

async function db() {
	return (await openReaderDb()).getAll('articles');
}

describe.each(recordedLevels)('one sync at a time (%s server shapes)', (level) => {
	const nav = globalThis as { navigator?: unknown };
	let saved: unknown;
	beforeEach(() => {
		saved = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
	});
	afterEach(() => {
		if (saved) Object.defineProperty(globalThis, 'navigator', saved as PropertyDescriptor);
	});

	it('stands back while another tab or the worker holds the lock', async () => {
		Object.defineProperty(globalThis, 'navigator', {
			configurable: true,
			value: {
				locks: {
					request: (_name: string, _opts: unknown, work: (lock: null) => unknown) =>
						Promise.resolve(work(null))
				}
			}
		});
		const server = syncServer(level);
		const result = await syncNow({ client: server.client, account: ACCOUNT, articleCount: 5 });
		expect(result.status).toBe('busy');
		expect(server.takeOps()).toEqual([]);
		expect(nav.navigator).toBeDefined();
	});
});
