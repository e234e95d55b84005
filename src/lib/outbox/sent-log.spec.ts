import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearFlagOutside, storeOfflineHeadlines } from '$lib/cache';
import { openReaderDb, resetReaderDbForTests } from '$lib/db/open';
import type { Intent } from './intent';
import { enqueueIntent, withQueuedChanges } from './outbox';
import { replayOutbox } from './replay';
import { SENT_LOG_MS, sentSince, withSent } from './sent-log';
import { fakeTtrss, headline } from './testing/fake-server';
import { bindAccount } from '$lib/db/account';
import { ownCacheForTests, TEST_ACCOUNT } from '$lib/db/testing';

beforeEach(async () => {
	globalThis.indexedDB = new IDBFactory();
	resetReaderDbForTests();
	// Written as the signed-in account's, as in the app.
	await ownCacheForTests();
});

const cached = async (id: number) => (await openReaderDb()).get('articles', id);

const read = (id: number): Intent => ({
	type: 'flag',
	field: 'unread',
	articleIds: [id],
	value: false
});

describe('the log of changes the server confirmed', () => {
	it('keeps them for a while, for their own account only', () => {
		const log = withSent(undefined, [{ intent: read(1), account: 'a' }], 1_000);
		const later = withSent(log, [{ intent: read(2), account: 'b' }], 2_000);
		expect(sentSince(later, 'a', 1_000)).toEqual([read(1)]);
		expect(sentSince(later, 'a', 1_001)).toEqual([]);
		expect(sentSince(later, 'b', 0)).toEqual([read(2)]);
		// Past its time an entry is dropped at the next write.
		const pruned = withSent(later, [], 1_000 + SENT_LOG_MS);
		expect(sentSince(pruned, 'a', 0)).toEqual([]);
		expect(sentSince('garbage', 'a', 0)).toEqual([]);
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
