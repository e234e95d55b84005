/** A change queued on a full device (enqueue.ts): kept in the outbox alone, or refused with why. */
import { describe, expect, it } from 'vitest';
import { readerText } from '$lib/api';
import { openReaderDb, resetReaderDbForTests } from '$lib/db/open';
import { m } from '$lib/i18n/m';
import { quota, useQuotaFaults } from '$support/quota-faults';
import { enqueueIntent } from './enqueue';
import type { Intent } from './intent';

useQuotaFaults(resetReaderDbForTests);

const star: Intent = { type: 'flag', field: 'starred', articleIds: [7], value: true };

describe('enqueueIntent on a full device', () => {
	it('keeps the change in the outbox alone when the cache cannot be written', async () => {
		await openReaderDb();
		// The cache write and its retry after freeing room fail; the outbox alone fits.
		quota.failCommits = 2;
		await enqueueIntent(star, 1_000);
		const db = await openReaderDb();
		expect((await db.getAll('outbox')).map((i) => i.key)).toEqual(['flag:starred:7']);
	});

	it('refuses a change that does not fit at all, saying the device is full', async () => {
		await openReaderDb();
		quota.failCommits = 10;
		const refused = await enqueueIntent(star, 1_000).then(
			() => undefined,
			(error: unknown) => error
		);
		expect(refused).toBeDefined();
		// Not the generic "try again in a moment": the reader learns why and what to do.
		expect(readerText(refused, m.failure_change())).toBe(m.failure_change_no_room());
		expect(await (await openReaderDb()).getAll('outbox')).toEqual([]);
	});
});
