// An article leaves a kept set (read elsewhere, or by this reader's own replay) while the sync
// pages through it with `skip`: every row after it moves up one place. Before the pages overlapped
// (api/paging.ts), the row that stood first on the next page was never read, the set still counted
// as read whole, and clearFlagOutside marked that still-unread article read in the cache (issue 55,
// item 5; the first test is the review's reproduction, which failed on cd7e7e8).
import { beforeEach, describe, expect, it } from 'vitest';
import { openReaderDb } from '$lib/db/open';
import { ownCacheForTests } from '$support/own-cache';
import { syncNow } from '$lib/sync/engine';
import { loadSyncState, parseState } from '$lib/sync/state';
import { syncServer } from '$support/sync-server';
import { recordedLevels } from '$support/fake-fetch';
import type { GetHeadlinesParams, TtrssClient } from '$lib/api';

beforeEach(async () => {
	await ownCacheForTests();
});

const ACCOUNT = 'reader@http://tt.example/api/';

/**
 * Calls `before(params, nth)` before each getHeadlines the client sends (nth counts them from 0),
 * where a test changes the server's articles as another device would.
 */
function beforeEachPage(
	client: TtrssClient,
	before: (params: GetHeadlinesParams, nth: number) => void
): void {
	const original = client.getHeadlines.bind(client);
	let nth = 0;
	client.getHeadlines = (params, options) => {
		before(params, nth++);
		return original(params, options);
	};
}

async function cached(id: number) {
	return (await openReaderDb()).get('articles', id);
}

describe.each(recordedLevels)('sync paging while a kept set shifts between pages (%s)', (level) => {
	it('an article still unread on the server stays unread in the cache', async () => {
		const server = syncServer(level);
		server.arrive(450);
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500 });
		// Another device reads one article: the counters move, the next sync reads the unread set.
		server.article(100).unread = false;
		const client = server.client;
		const original = client.getHeadlines.bind(client);
		let done = false;
		client.getHeadlines = (params, options) => {
			// While the sync pages the unread set: article 400 (on its first page, not its first
			// row) is read elsewhere before the second page is asked for.
			if (!done && params.viewMode === 'unread' && (params.skip ?? 0) > 0) {
				done = true;
				server.article(400).unread = false;
			}
			return original(params, options);
		};
		const result = await syncNow({ client, account: ACCOUNT, articleCount: 500 });
		expect(result.status).toBe('synced');
		expect(done).toBe(true);
		// Article 250 was never touched: unread on the server from start to end.
		expect(server.article(250).unread).toBe(true);
		const db = await openReaderDb();
		expect((await db.get('articles', 250))?.unread).toBe(true);
	});

	it('the shift costs one small request (the bridge), and what was read elsewhere is still cleared', async () => {
		const server = syncServer(level);
		server.arrive(450);
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500 });
		server.article(100).unread = false;
		server.takeOps();
		const limits: string[] = [];
		beforeEachPage(server.client, (params, nth) => {
			limits.push(`${String(params.skip ?? 0)}+${String(params.limit)}`);
			// The unread set's pages (after the new articles' one): 400 and 399 read elsewhere
			// before its second and third pages are asked for.
			if (nth === 2) {
				server.article(400).unread = false;
				server.article(399).unread = false;
			}
		});
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500 });
		// The new articles (none), the unread set's three pages of 200 overlapping by a row, and
		// one bridge of 11 rows before the second page: the shift's whole cost.
		expect(limits).toEqual(['0+200', '0+200', '199+200', '398+200', '189+11']);
		for (const id of [450, 251, 250, 249, 1]) expect((await cached(id))?.unread).toBe(true);
		// Read elsewhere before the sync began: cleared, the set having been read whole.
		expect((await cached(100))?.unread).toBe(false);
		expect((await loadSyncState(ACCOUNT)).readAgain).toBeUndefined();
	});

	it('a starred article unstarred elsewhere between pages leaves the others starred', async () => {
		const server = syncServer(level);
		server.arrive(450);
		for (let id = 1; id <= 450; id++) server.article(id).marked = true;
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500 });
		server.article(10).marked = false;
		beforeEachPage(server.client, (params) => {
			if (params.feedId === -1 && (params.skip ?? 0) > 0) server.article(300).marked = false;
		});
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500 });
		expect((await cached(250))?.marked).toBe(true);
		expect((await cached(251))?.marked).toBe(true);
		expect((await cached(10))?.marked).toBe(false);
	});

	it('a list that keeps shifting clears nothing, and the next sync reads the set again', async () => {
		const server = syncServer(level);
		server.arrive(450);
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500 });
		server.article(100).unread = false;
		// Before each of the unread set's requests after its first one from the top, the 30
		// unread articles around its first page's end are read elsewhere: more than a bridge can
		// join, and the rows a bridge would look for gone before it, again and again.
		const readMeanwhile: number[] = [];
		let shifting = true;
		beforeEachPage(server.client, (params) => {
			if (!shifting || params.viewMode !== 'unread' || (params.skip ?? 0) === 0) return;
			const unread = [...server.articles]
				.filter(([, a]) => a.unread)
				.map(([id]) => id)
				.sort((x, y) => y - x);
			for (const id of unread.slice(180, 210)) {
				server.article(id).unread = false;
				readMeanwhile.push(id);
			}
		});
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500 });
		// Nothing was cleared on the strength of that read: 100 is still unread in the cache,
		// as is every article the pages may have missed.
		expect((await cached(100))?.unread).toBe(true);
		expect((await loadSyncState(ACCOUNT)).readAgain).toEqual(['unread']);
		// The next sync reads the set again, though its counters have not moved since.
		shifting = false;
		server.takeOps();
		const again = await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500 });
		expect(again.status).toBe('synced');
		expect((await cached(100))?.unread).toBe(false);
		for (const id of readMeanwhile) expect((await cached(id))?.unread).toBe(false);
		for (const id of [450, 300, 1]) expect((await cached(id))?.unread).toBe(true);
		expect((await loadSyncState(ACCOUNT)).readAgain).toBeUndefined();
		// And the one after it is idle again: one getCounters.
		server.takeOps();
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500 });
		expect(server.takeOps()).toEqual(['getCounters']);
	});
});

describe('the sets to read again, as stored', () => {
	it('keeps the kept sets it knows, once each; anything else reads as none', () => {
		expect(parseState({ readAgain: ['unread', 'bogus', 3, 'marked', 'unread'] }).readAgain).toEqual(
			['unread', 'marked']
		);
		expect('readAgain' in parseState({ readAgain: 'unread' })).toBe(false);
		expect('readAgain' in parseState({ readAgain: [] })).toBe(false);
	});
});
