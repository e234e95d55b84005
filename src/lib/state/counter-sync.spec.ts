/**
 * The counters are read again once the reader's changes are sent and the outbox has stayed empty
 * a moment: once for a run of articles, not once an article (issue 28).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const refreshCounters = vi.fn(() => Promise.resolve());
let pending = 0;

vi.mock('./tree.svelte', () => ({ treeState: { refreshCounters } }));
vi.mock('$lib/outbox/outbox', () => ({ pendingCount: () => Promise.resolve(pending) }));

const { COUNTERS_QUIET_MS, refreshCountersWhenSent, syncCountersWithOutbox } =
	await import('./counter-sync');
const { announceOutboxChange } = await import('$lib/outbox/broadcast');
const { emitAccountEvent } = await import('$lib/db/account-events');

beforeEach(() => {
	vi.useFakeTimers();
	refreshCounters.mockClear();
	pending = 0;
});

afterEach(() => {
	vi.useRealTimers();
});

describe('reading the counters after the reader’s changes', () => {
	it('reads them once for a run of changes, when the outbox has stayed empty', async () => {
		const stop = syncCountersWithOutbox();
		// Ten articles read one after another, each sent and confirmed within the quiet time.
		for (let i = 0; i < 10; i++) {
			refreshCountersWhenSent();
			announceOutboxChange();
			await vi.advanceTimersByTimeAsync(COUNTERS_QUIET_MS / 2);
		}
		expect(refreshCounters).not.toHaveBeenCalled();
		await vi.advanceTimersByTimeAsync(COUNTERS_QUIET_MS);
		expect(refreshCounters).toHaveBeenCalledTimes(1);
		stop();
	});

	it('does not read them while changes wait to be sent', async () => {
		pending = 2;
		refreshCountersWhenSent();
		await vi.advanceTimersByTimeAsync(COUNTERS_QUIET_MS * 2);
		expect(refreshCounters).not.toHaveBeenCalled();
	});

	it('drops the read due at sign-out, and when the page stops following the outbox', async () => {
		refreshCountersWhenSent();
		await emitAccountEvent({ type: 'signed-out' });
		await vi.advanceTimersByTimeAsync(COUNTERS_QUIET_MS * 2);
		expect(refreshCounters).not.toHaveBeenCalled();
		const stop = syncCountersWithOutbox();
		announceOutboxChange();
		stop();
		await vi.advanceTimersByTimeAsync(COUNTERS_QUIET_MS * 2);
		expect(refreshCounters).not.toHaveBeenCalled();
	});
});
