import { beforeEach, describe, expect, it } from 'vitest';
import { clearFlagOutside, storeOfflineHeadlines } from '$lib/cache/kept';
import { getStored } from '$lib/db/kv';
import type { Intent } from './intent';
import { withQueuedChanges } from './outbox';
import { enqueueIntent } from './enqueue';
import { replayOutbox } from './replay';
import { SENT_LOG, SENT_LOG_MS, sentSince } from './sent-log';
import { withSent } from './sent-log-write';
import { cacheArticles, cached } from '$support/cached-articles';
import { fakeTtrss } from '$support/fake-server';
import { headline } from '$support/factories';
import { bindAccount } from '$lib/db/account';
import { ownCacheForTests } from '$support/own-cache';
import { TEST_ACCOUNT } from '$support/factories';

beforeEach(async () => {
	// Written as the signed-in account's, as in the app.
	await ownCacheForTests();
});

const read = (id: number): Intent => ({
	type: 'flag',
	field: 'unread',
	articleIds: [id],
	value: false
});

describe('the log of changes the server confirmed', () => {
	it('keeps them for a while, for their own account only', () => {
		const { log } = withSent(undefined, [{ intent: read(1), account: 'a', createdAt: 900 }], 1_000);
		const { log: later } = withSent(
			log,
			[{ intent: read(2), account: 'b', createdAt: 1_900 }],
			2_000
		);
		expect(sentSince(later, 'a', 1_000)).toEqual([{ intent: read(1) }]);
		expect(sentSince(later, 'a', 1_001)).toEqual([]);
		expect(sentSince(later, 'b', 0)).toEqual([{ intent: read(2) }]);
		// Past its time an entry is dropped at the next write.
		const pruned = withSent(later, [], 1_000 + SENT_LOG_MS);
		expect(sentSince(pruned.log, 'a', 0)).toEqual([]);
		// …and an answer asked for before it is then known to be unsure (the horizon).
		expect(pruned.horizon).toBe(1_000);
		expect(sentSince('garbage', 'a', 0)).toEqual([]);
	});

	it('caps older actions, never the one being confirmed, and moves the horizon past what it drops', () => {
		const batch = (n: number, createdAt: number) =>
			Array.from({ length: n }, (_, i) => ({ intent: read(i), createdAt }));
		const first = withSent(undefined, batch(400, 1), 10);
		const second = withSent(first.log, batch(300, 2), 20);
		expect(second.log.filter((e) => e.madeAt === 1)).toHaveLength(200);
		expect(second.horizon).toBe(10);
		// The same action's next call (its 501st article) cuts the older action, not itself.
		const third = withSent(second.log, batch(250, 2), 30);
		expect(third.log.filter((e) => e.madeAt === 2)).toHaveLength(550);
	});
});

describe('server data asked for before a change was confirmed', () => {
	async function readThenSent(): Promise<{ askedAt: number; sentAt: number }> {
		const server = fakeTtrss();
		await storeOfflineHeadlines([headline(1, { unread: true })]);
		const askedAt = 10_000;
		// The reader opens the article (marked read); it is sent before the answer is written.
		await enqueueIntent(read(1), askedAt + 100);
		await replayOutbox({
			client: bindAccount(server.client(), TEST_ACCOUNT),
			now: () => askedAt + 200
		});
		expect(server.article(1).unread).toBe(false);
		return { askedAt, sentAt: askedAt + 200 };
	}

	it('does not put the old state back in the cache (the sync’s rows and its kept sets)', async () => {
		const { askedAt } = await readThenSent();
		// The sync's answer, asked for before: the article still unread.
		await storeOfflineHeadlines([headline(1, { unread: true })], { readAt: askedAt });
		expect((await cached(1))?.unread).toBe(false);
		await clearFlagOutside('marked', new Set(), { readAt: askedAt });
		expect((await cached(1))?.unread).toBe(false);
	});

	it('nor on screen', async () => {
		const { askedAt } = await readThenSent();
		const [row] = await withQueuedChanges([headline(1, { unread: true })], askedAt);
		expect(row?.unread).toBe(false);
	});

	it('an answer asked for after it shows the server’s state, whatever it is now', async () => {
		const { sentAt } = await readThenSent();
		// Marked unread again elsewhere, read after the change was confirmed.
		await storeOfflineHeadlines([headline(1, { unread: true })], { readAt: sentAt + 1 });
		expect((await cached(1))?.unread).toBe(true);
		const [row] = await withQueuedChanges([headline(1, { unread: true })], sentAt + 1);
		expect(row?.unread).toBe(true);
	});
});

describe('the log over long reads and large batches', () => {
	const T = 1_800_000_000_000;

	it('keeps every change of one confirmed batch (more than 500 articles marked read at once)', async () => {
		const ids = Array.from({ length: 501 }, (_, i) => i + 1);
		await cacheArticles(ids);
		const server = fakeTtrss();
		for (const id of ids) server.article(id);
		// "Select all" + Mark read over 501 loaded rows.
		await enqueueIntent({ type: 'flag', field: 'unread', articleIds: ids, value: false }, T);
		// A sync asked for the unread set just before the replay sent the change…
		const readAt = T + 500;
		await replayOutbox({
			client: bindAccount(server.client(), TEST_ACCOUNT),
			now: () => T + 1_000
		});
		expect(ids.every((id) => !server.article(id).unread)).toBe(true);
		// …and writes that (older) answer after the confirmation.
		await storeOfflineHeadlines(
			ids.map((id) => headline(id)),
			{ readAt }
		);
		const stillUnread: number[] = [];
		for (const id of ids) if ((await cached(id))?.unread) stillUnread.push(id);
		const log = await getStored(SENT_LOG);
		expect({ stillUnread, logged: log.length }).toEqual({ stillUnread: [], logged: 501 });
	});

	it('covers a sync whose read started more than 5 minutes before its write (clearFlagOutside)', async () => {
		await cacheArticles([1], { unread: false });
		await cacheArticles([2]);
		const server = fakeTtrss();
		server.article(1).unread = false;
		server.article(2);
		// A long first sync begins: it reads the unread set at T (article 1 is not in it).
		const readAt = T;
		// The reader marks 1 unread; sent and confirmed a minute later.
		await enqueueIntent(
			{ type: 'flag', field: 'unread', articleIds: [1], value: true },
			T + 60_000
		);
		await replayOutbox({
			client: bindAccount(server.client(), TEST_ACCOUNT),
			now: () => T + 60_000
		});
		expect(server.article(1).unread).toBe(true);
		// Five and a half minutes later the reader stars article 2 (sent and confirmed).
		await enqueueIntent(
			{ type: 'flag', field: 'starred', articleIds: [2], value: true },
			T + 390_000
		);
		await replayOutbox({
			client: bindAccount(server.client(), TEST_ACCOUNT),
			now: () => T + 390_000
		});
		// The sync (still the same one) finishes the unread set and clears what was not in it.
		await clearFlagOutside('unread', new Set([2]), { readAt });
		expect((await cached(1))?.unread).toBe(true);
		// A read asked for after the horizon takes the server's state again.
		server.article(1).unread = false;
		await clearFlagOutside('unread', new Set([2]), { readAt: T + 390_001 });
		expect((await cached(1))?.unread).toBe(false);
	});
});
