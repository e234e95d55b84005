/** The outbox's reads on the way in (outbox.ts): what a tap reads of the queue. */
import { describe, expect, it } from 'vitest';
import { SPECIAL_FEED } from '$lib/api';
import { openReaderDb } from '$lib/db/open';
import type { OutboxItem } from '$lib/db/schema';
import { splitIntent } from './split';
import type { Intent } from './intent';
import { pendingItems } from './outbox';
import { enqueueIntent, queuedUnder } from './enqueue';

const star = (id: number, value: boolean): Intent => ({
	type: 'flag',
	field: 'starred',
	articleIds: [id],
	value
});

describe('queuedUnder', () => {
	it('reads the items under the drafts’ keys and the catch-ups, not the whole queue', async () => {
		for (let id = 1; id <= 200; id++) await enqueueIntent(star(id, true), 1_000 + id);
		await enqueueIntent({ type: 'catchup', feedId: 5, isCat: false, mode: 'all' }, 2_000);
		await enqueueIntent({ type: 'catchup', feedId: 6, isCat: false, mode: 'all' }, 2_001);
		const db = await openReaderDb();
		const tx = db.transaction('outbox', 'readonly');
		let read = 0;
		const counted = {
			index: (name: 'byKey') => ({
				getAll: async (query: string | IDBKeyRange): Promise<OutboxItem[]> => {
					const rows = await tx.store.index(name).getAll(query);
					read += rows.length;
					return rows;
				}
			})
		};
		const drafts = splitIntent(star(7, false), 3_000);
		const { queued, catchups } = await queuedUnder(counted, drafts);
		await tx.done;
		expect(queued.map((q) => q.map((i) => i.key))).toEqual([['flag:starred:7']]);
		expect(catchups?.map((c) => c.intent.type === 'catchup' && c.intent.feedId)).toEqual([5, 6]);
		expect(read).toBe(3);
	});

	it('reads no catch-ups when nothing is queued under the drafts’ keys', async () => {
		await enqueueIntent({ type: 'catchup', feedId: 5, isCat: false, mode: 'all' }, 2_000);
		const db = await openReaderDb();
		const tx = db.transaction('outbox', 'readonly');
		const result = await queuedUnder(tx.store, splitIntent(star(7, true), 3_000));
		await tx.done;
		expect(result).toEqual({ queued: [[]] });
	});
});

describe('enqueueIntent past a queued catch-up', () => {
	it('keeps an unstar before a later catch-up of Starred (its scope), and a star after it', async () => {
		await enqueueIntent(star(7, false), 1_000);
		await enqueueIntent(
			{ type: 'catchup', feedId: SPECIAL_FEED.starred, isCat: false, mode: 'all' },
			2_000
		);
		await enqueueIntent(star(7, true), 3_000);
		const queue = (await pendingItems()).map((i) =>
			i.intent.type === 'flag' ? `star ${String(i.intent.value)}` : i.intent.type
		);
		expect(queue).toEqual(['star false', 'catchup', 'star true']);
	});

	it('replaces an older star when no catch-up depends on it', async () => {
		await enqueueIntent(star(7, false), 1_000);
		await enqueueIntent({ type: 'catchup', feedId: 5, isCat: false, mode: 'all' }, 2_000);
		await enqueueIntent(star(7, true), 3_000);
		const queue = (await pendingItems()).map((i) =>
			i.intent.type === 'flag' ? `star ${String(i.intent.value)}` : i.intent.type
		);
		expect(queue).toEqual(['catchup', 'star true']);
	});
});
