import { describe, expect, it, vi } from 'vitest';
import type { Intent } from '$lib/outbox/intent';

const STAR = (id: number): Intent => ({
	type: 'flag',
	field: 'starred',
	articleIds: [id],
	value: true
});

describe('the offline status', () => {
	it('reads the outbox once for a burst of calls, and again for a change after it', async () => {
		vi.resetModules();
		const outbox = await import('$lib/outbox/outbox');
		const { enqueueIntent } = await import('$lib/outbox/enqueue');
		const reads = vi.spyOn(outbox, 'pendingItems');
		const { offlineStatus } = await import('./offline-status.svelte');
		for (let id = 1; id <= 11; id++) await enqueueIntent(STAR(id));
		// Eleven changes announced at once (a replay confirming them, say): eleven calls.
		await Promise.all(Array.from({ length: 11 }, () => offlineStatus.refresh()));
		expect(offlineStatus.pending).toBe(11);
		// The first call reads; the ten during it become one read after it.
		expect(reads).toHaveBeenCalledTimes(2);
		// A change after the burst is read again.
		await enqueueIntent(STAR(12));
		await offlineStatus.refresh();
		expect(offlineStatus.pending).toBe(12);
		expect(reads).toHaveBeenCalledTimes(3);
	});
});
