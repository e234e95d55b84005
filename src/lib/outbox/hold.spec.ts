import { IDBObjectStore } from 'fake-indexeddb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { storeList } from '$lib/cache/write';
import { storeOfflineHeadlines } from '$lib/cache/kept';
import type { OutboxItem } from '$lib/db/schema';
import { cancelHold, releaseHold, type Hold } from './hold';
import type { Intent } from './intent';
import { pendingItems } from './outbox';
import { enqueueIntent } from './enqueue';
import { mayOvertake } from './order';
import { replayOutbox } from './replay';
import { planCalls } from './replay-plan';
import { cacheArticles, cached } from '$support/cached-articles';
import { fakeTtrss } from '$support/fake-server';
import { headline } from '$support/factories';
import { ownCacheForTests } from '$support/own-cache';

const T = 1_800_000_000_000;
const hold = (id: string, until = T + 6_000): Hold => ({ id, until });
const read = (ids: number[], value = false): Intent => ({
	type: 'flag',
	field: 'unread',
	articleIds: ids,
	value
});
const catchup = (feedId: number, isCat = false): Extract<Intent, { type: 'catchup' }> => ({
	type: 'catchup',
	feedId,
	isCat,
	mode: 'all'
});

const opsOf = (items: OutboxItem[], now: number) =>
	planCalls(items, now).map((c) => [c.op, c.items.map((i) => i.key)]);

describe('a held change', () => {
	it('is not sent while held, and exactly once after the hold expired (no release needed)', async () => {
		const server = fakeTtrss();
		await enqueueIntent(read([1, 2]), T, hold('a'));
		let now = T + 1_000;
		await replayOutbox({ client: server.client(), now: () => now });
		expect(server.calls()).toEqual([]);
		expect(await pendingItems()).toHaveLength(2);
		// The page died: nobody released it. Any replay (the worker's) sends it once it expired.
		now = T + 6_000;
		await replayOutbox({ client: server.client(), now: () => now });
		await replayOutbox({ client: server.client(), now: () => now });
		expect(server.calls()).toEqual(['updateArticle']);
		expect(server.article(1).unread).toBe(false);
		expect(await pendingItems()).toEqual([]);
	});

	it('is sent at once when released', async () => {
		const server = fakeTtrss();
		await enqueueIntent(read([1]), T, hold('a'));
		expect(await releaseHold('a')).toBe(1);
		await replayOutbox({ client: server.client(), now: () => T + 1 });
		expect(server.article(1).unread).toBe(false);
	});

	it('released, reads its own items, not the whole queue (a tap with many changes queued)', async () => {
		for (let id = 100; id < 400; id++) await enqueueIntent(read([id]), T);
		await enqueueIntent(read([1, 2]), T, hold('a'));
		await enqueueIntent(read([3]), T, hold('b'));
		const readAll = vi.spyOn(IDBObjectStore.prototype, 'getAll');
		try {
			expect(await releaseHold('a')).toBe(2);
			expect(readAll).not.toHaveBeenCalled();
		} finally {
			readAll.mockRestore();
		}
		const held = (await pendingItems()).filter((i) => i.heldUntil !== undefined);
		expect(held.map((i) => i.key)).toEqual(['flag:unread:3']);
		// A hold this page did not queue (another tab's) is found all the same.
		expect(await releaseHold('elsewhere')).toBe(0);
		expect(await releaseHold('b')).toBe(1);
	});

	it('undone: nothing is sent, the cache is put back, and the change it replaced comes back in its place', async () => {
		const server = fakeTtrss();
		await cacheArticles([1, 2, 3]);
		await enqueueIntent(read([3], true), T);
		await enqueueIntent(read([1]), T); // earlier, queued: "1 read"
		const before = (await pendingItems()).map((i) => [i.seq, i.key, i.intent]);
		await enqueueIntent(read([1, 2], true), T, hold('a')); // held: 1, 2 unread
		expect((await pendingItems()).map((i) => i.key)).toEqual([
			'flag:unread:3',
			'flag:unread:1',
			'flag:unread:2'
		]);
		expect(await cancelHold('a', T + 1_000)).toEqual({
			keys: new Set(['flag:unread:1', 'flag:unread:2']),
			changedSince: new Set()
		});
		// The state before it: "1 read" queued again, with its own place in the queue.
		expect((await pendingItems()).map((i) => [i.seq, i.key, i.intent])).toEqual(before);
		expect((await cached(1))?.unread).toBe(false);
		expect((await cached(2))?.unread).toBe(true);
		await replayOutbox({ client: server.client(), now: () => T + 10_000 });
		expect(server.article(1).unread).toBe(false);
		expect(server.article(2).unread).toBe(true);
		expect(server.article(3).unread).toBe(true);
	});

	it('cannot be undone once its hold is gone: released or expired', async () => {
		await enqueueIntent(read([1]), T, hold('a'));
		expect(await cancelHold('a', T + 6_000)).toBeUndefined();
		await enqueueIntent(read([2]), T, hold('b'));
		await releaseHold('b');
		expect(await cancelHold('b', T + 1)).toBeUndefined();
		expect((await pendingItems()).map((i) => i.key)).toEqual(['flag:unread:1', 'flag:unread:2']);
	});

	it('a later hold that replaced it does not bring it back once it was undone', async () => {
		await enqueueIntent(read([1]), T, hold('a'));
		await enqueueIntent(read([1], true), T, hold('b'));
		// "a" was replaced: nothing of it is left to undo.
		expect(await cancelHold('a', T + 1)).toBeUndefined();
		expect(await cancelHold('b', T + 1)).toBeDefined();
		expect((await pendingItems()).map((i) => [i.key, i.undoId])).toEqual([['flag:unread:1', 'a']]);
	});

	it('undoing the first of two stacked holds, then the second, leaves nothing of either', async () => {
		await enqueueIntent(read([1]), T); // queued, not held
		await enqueueIntent(read([1], true), T, hold('a'));
		await enqueueIntent(read([2]), T, hold('a2'));
		expect(await cancelHold('a2', T + 1)).toBeDefined();
		expect(await cancelHold('a', T + 1)).toBeDefined();
		expect((await pendingItems()).map((i) => [i.key, i.intent])).toEqual([
			['flag:unread:1', read([1])]
		]);
	});

	it('a catch-up undone puts the cached rows back unread, except those changed since', async () => {
		await cacheArticles([1, 2, 3]);
		await enqueueIntent(catchup(-4), T, hold('c'));
		expect((await cached(2))?.unread).toBe(false);
		await enqueueIntent(read([2], true), T); // reopened as unread afterwards
		await enqueueIntent(read([3]), T); // read afterwards
		const undone = await cancelHold('c', T + 1);
		expect(undone?.changedSince).toEqual(new Set(['flag:unread:2', 'flag:unread:3']));
		expect((await cached(1))?.unread).toBe(true);
		expect((await cached(2))?.unread).toBe(true);
		expect((await cached(3))?.unread).toBe(false);
		expect((await pendingItems()).map((i) => i.key)).toEqual(['flag:unread:2', 'flag:unread:3']);
	});
});

describe('replay order around a held catch-up', () => {
	const item = (seq: number, intent: Intent, extra: Partial<OutboxItem> = {}): OutboxItem => ({
		seq,
		key: `k${seq}`,
		intent,
		createdAt: T,
		attempts: 0,
		...extra
	});
	const heldCatchup = (feedId: number, isCat = false) =>
		item(1, catchup(feedId, isCat), { heldUntil: T + 5_000, undoId: 'c' });

	it('keeps later read changes, catch-ups and shares behind it, lets the rest go', () => {
		const items = [
			heldCatchup(6),
			item(2, read([5], true)),
			item(3, { type: 'flag', field: 'starred', articleIds: [5], value: true }),
			item(4, { type: 'note', articleId: 5, note: 'n' }),
			item(5, { type: 'label', articleIds: [5], labelId: -1026, assign: true }),
			item(6, catchup(7)),
			item(7, { type: 'share', title: 't', url: 'http://feeds.test/s', content: '' })
		];
		expect(opsOf(items, T + 1)).toEqual([
			['updateArticle', ['k3']],
			['updateArticle', ['k4']],
			['setArticleLabel', ['k5']]
		]);
		// Expired (or released): everything, in the reader's order.
		expect(opsOf(items, T + 5_000).map(([op]) => op)).toEqual([
			'catchupFeed',
			'updateArticle',
			'updateArticle',
			'updateArticle',
			'setArticleLabel',
			'catchupFeed',
			'shareToPublished'
		]);
	});

	it('keeps what could move an article into or out of its scope behind it', () => {
		const star: Intent = { type: 'flag', field: 'starred', articleIds: [5], value: false };
		const publish: Intent = { type: 'flag', field: 'published', articleIds: [5], value: true };
		const label: Intent = { type: 'label', articleIds: [5], labelId: -1026, assign: false };
		expect(mayOvertake(star, catchup(-1))).toBe(false);
		expect(mayOvertake(publish, catchup(-1))).toBe(true);
		expect(mayOvertake(publish, catchup(-2))).toBe(false);
		expect(mayOvertake(star, catchup(-1, true))).toBe(false); // the Special category
		expect(mayOvertake(label, catchup(-1026))).toBe(false);
		expect(mayOvertake(label, catchup(-1027))).toBe(true);
		expect(mayOvertake(label, catchup(-2, true))).toBe(false); // the Labels category
		// A search can name any flag; a tag's scope is the server's.
		expect(mayOvertake(star, { ...catchup(6), search: 'star:true' })).toBe(false);
		expect(
			mayOvertake({ type: 'note', articleId: 5, note: '' }, { ...catchup(6), search: 'x' })
		).toBe(false);
	});

	it('a held swipe keeps a later catch-up waiting, not unrelated changes', () => {
		const items = [
			item(1, read([5]), { heldUntil: T + 5_000, undoId: 's' }),
			item(2, { type: 'flag', field: 'starred', articleIds: [6], value: true }),
			item(3, catchup(6))
		];
		expect(opsOf(items, T + 1)).toEqual([['updateArticle', ['k2']]]);
	});

	it('a catch-up waiting behind a held one keeps what could reach it behind it too', () => {
		const items = [
			// Tab 1: "Mark feed 1 read", its Undo toast still showing.
			heldCatchup(1),
			// Tab 2: "Mark Starred read" (released: its toast went away).
			item(2, { ...catchup(-1), at: T, maxId: 9 }),
			// Then the reader stars article 5 (it was not in Starred when they caught it up).
			item(3, { type: 'flag', field: 'starred', articleIds: [5], value: true })
		];
		// Sent now, the star would put article 5 into the Starred catch-up that is sent later.
		expect(opsOf(items, T + 1)).toEqual([]);
	});

	it('end to end: the Starred catch-up waiting behind it does not mark read what was starred after', async () => {
		const server = fakeTtrss();
		for (const id of [1, 2, 3]) server.article(id);
		server.article(5).feedId = 2;
		Object.assign(server.article(9), { feedId: 2, marked: true });
		// Tab 1: catch-up of feed 1, held (its toast shows).
		await enqueueIntent(catchup(1), T, hold('c', T + 6_500));
		// Tab 2: catch-up of Starred (article 9 is the only starred one), toast gone: not held.
		await enqueueIntent(catchup(-1), T + 500);
		// Then the reader stars article 5.
		await enqueueIntent(
			{ type: 'flag', field: 'starred', articleIds: [5], value: true },
			T + 1_000
		);
		await replayOutbox({ client: server.client(), now: () => T + 1_500 });
		await replayOutbox({ client: server.client(), now: () => T + 7_000 });
		expect(await pendingItems()).toEqual([]);
		expect(server.article(9).unread).toBe(false);
		expect(server.article(5).marked).toBe(true);
		// Article 5 was not starred when the reader caught up Starred: it stays unread.
		expect(server.article(5).unread).toBe(true);
	});
});

describe('undo of a held change to an article stored during the hold', () => {
	// The writes during the hold are the signed-in account's, as in the app.
	beforeEach(() => ownCacheForTests());

	it('puts back the state the write stored (the article was not cached when it was held)', async () => {
		await enqueueIntent(
			{ type: 'label', articleIds: [7], labelId: -1025, assign: true },
			T,
			hold('l', T + 6_500)
		);
		// A sync stores article 7 (without the label on the server) during the toast.
		await storeOfflineHeadlines([headline(7)]);
		expect((await cached(7))?.labels.map((l) => l.id)).toEqual([-1025]);
		expect(await cancelHold('l', T + 2_000)).toBeDefined();
		// Found by the model test: the label stayed in the cache while the server never had it.
		expect((await cached(7))?.labels).toEqual([]);
	});
});

describe('undo of a held change a later held catch-up covers', () => {
	it('keeps the article read while the catch-up stands, and puts it back when that is undone too', async () => {
		await cacheArticles([1, 2]);
		await enqueueIntent(read([1]), T, hold('r', T + 6_500));
		await enqueueIntent(catchup(1), T + 100, hold('c', T + 6_600));
		// Found by the soak: undoing the read put article 1 back unread, the catch-up then read it.
		const first = await cancelHold('r', T + 1_000);
		expect(first?.changedSince.has('flag:unread:1')).toBe(true);
		expect((await cached(1))?.unread).toBe(false);
		expect(await cancelHold('c', T + 1_100)).toBeDefined();
		expect([(await cached(1))?.unread, (await cached(2))?.unread]).toEqual([true, true]);
	});
});

describe('undo of a held catch-up', () => {
	// The writes during the hold are the signed-in account's, as in the app.
	beforeEach(() => ownCacheForTests());

	it('leaves read what a later catch-up (queued, not held) covers, in the cache and on screen', async () => {
		await cacheArticles([1, 2]);
		await enqueueIntent(catchup(1), T, hold('c', T + 6_500));
		// Another tab catches up the same feed, without an Undo (found by the model test).
		await enqueueIntent(catchup(1), T + 500);
		const undone = await cancelHold('c', T + 2_000);
		expect(undone?.changedSince.has('flag:unread:1')).toBe(true);
		expect([(await cached(1))?.unread, (await cached(2))?.unread]).toEqual([false, false]);
		expect(await pendingItems()).toHaveLength(1);
	});

	it('puts back every cached article the hold marked read, including ones stored during the hold', async () => {
		await cacheArticles([10]);
		await enqueueIntent(catchup(1), T, hold('c', T + 6_500));
		expect((await cached(10))?.unread).toBe(false);
		// During the Undo toast: a sync stores article 5 of feed 1 (unread on the server), and the
		// list loads a page with article 7 (the reader scrolled). Both are below maxId (10).
		await storeOfflineHeadlines([headline(5)]);
		await storeList(
			{ feedId: 1, isCat: false, viewMode: 'adaptive', orderBy: '', search: '' },
			0,
			[headline(10), headline(7)],
			false
		);
		expect((await cached(5))?.unread).toBe(false);
		// Undo: nothing was sent; the server still has 5, 7 and 10 unread.
		expect(await cancelHold('c', T + 2_000)).toBeDefined();
		expect(await pendingItems()).toEqual([]);
		expect((await cached(10))?.unread).toBe(true);
		expect({ 5: (await cached(5))?.unread, 7: (await cached(7))?.unread }).toEqual({
			5: true,
			7: true
		});
	});
});
