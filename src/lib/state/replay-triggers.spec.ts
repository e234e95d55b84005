import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReplayResult } from '$lib/outbox/replay';

// The page's session, the replay and the status are stand-ins: this tests when the page replays.
const replayOutbox = vi.fn<() => Promise<ReplayResult>>();
const pendingItems = vi.fn(() =>
	Promise.resolve([] as { notBefore?: number; heldUntil?: number }[])
);
vi.mock('$lib/outbox/replay', () => ({ replayOutbox }));
vi.mock('$lib/outbox/outbox', () => ({ pendingItems }));
vi.mock('./session.svelte', () => ({
	session: { restore: () => Promise.resolve(), signedIn: true, api: () => Promise.resolve({}) }
}));
vi.mock('$lib/offline/offline-status.svelte', () => ({
	offlineStatus: { refresh: () => Promise.resolve() }
}));
vi.mock('$lib/boot/early-reads', () => ({ afterFirstScreen: () => new Promise(() => undefined) }));

const { RETRY_MAX_MS, retryDelay, runReplay } = await import('./replay-triggers');

const offline: ReplayResult = { calls: 1, sent: 0, failed: 0, remaining: 2, stopped: 'offline' };
const done: ReplayResult = { calls: 1, sent: 2, failed: 0, remaining: 0 };

beforeEach(() => {
	vi.useFakeTimers();
	replayOutbox.mockReset();
	pendingItems.mockReset();
	pendingItems.mockResolvedValue([]);
});

afterEach(() => {
	vi.useRealTimers();
});

describe('retries while changes wait (no Background Sync)', () => {
	it('after a transport failure tries again by itself, seconds then minutes apart, until it gets through', async () => {
		replayOutbox.mockResolvedValue(offline);
		await runReplay();
		expect(replayOutbox).toHaveBeenCalledTimes(1);
		const waits = [5_000, 10_000, 20_000, 40_000];
		for (const [i, wait] of waits.entries()) {
			await vi.advanceTimersByTimeAsync(wait - 1);
			expect(replayOutbox).toHaveBeenCalledTimes(i + 1);
			await vi.advanceTimersByTimeAsync(1);
			expect(replayOutbox).toHaveBeenCalledTimes(i + 2);
		}
		// The server is back: the next try sends everything and no more tries follow.
		replayOutbox.mockResolvedValue(done);
		await vi.advanceTimersByTimeAsync(80_000);
		expect(replayOutbox).toHaveBeenCalledTimes(6);
		await vi.advanceTimersByTimeAsync(60 * 60_000);
		expect(replayOutbox).toHaveBeenCalledTimes(6);
	});

	it('caps the delay at a few minutes', () => {
		expect(retryDelay(1)).toBe(5_000);
		expect(retryDelay(30)).toBe(RETRY_MAX_MS);
		expect(RETRY_MAX_MS).toBeLessThanOrEqual(5 * 60_000);
	});

	it('does not retry by itself when the reader must act (sign in)', async () => {
		replayOutbox.mockResolvedValue({ ...offline, stopped: 'sign-in' });
		await runReplay();
		await vi.advanceTimersByTimeAsync(60 * 60_000);
		expect(replayOutbox).toHaveBeenCalledTimes(1);
	});

	it('wakes when an item put off after a server failure is due', async () => {
		const now = Date.now();
		replayOutbox.mockResolvedValue({ calls: 1, sent: 0, failed: 0, remaining: 1 });
		pendingItems.mockResolvedValue([{ notBefore: now + 30_000 }]);
		await runReplay();
		await vi.advanceTimersByTimeAsync(29_000);
		expect(replayOutbox).toHaveBeenCalledTimes(1);
		replayOutbox.mockResolvedValue(done);
		await vi.advanceTimersByTimeAsync(1_000);
		expect(replayOutbox).toHaveBeenCalledTimes(2);
	});
	it('wakes when a change held for an Undo expires (its tab may be gone)', async () => {
		const now = Date.now();
		replayOutbox.mockResolvedValue({ calls: 0, sent: 0, failed: 0, remaining: 1 });
		pendingItems.mockResolvedValue([{ heldUntil: now + 6_000 }]);
		await runReplay();
		await vi.advanceTimersByTimeAsync(5_000);
		expect(replayOutbox).toHaveBeenCalledTimes(1);
		replayOutbox.mockResolvedValue(done);
		await vi.advanceTimersByTimeAsync(1_000);
		expect(replayOutbox).toHaveBeenCalledTimes(2);
	});
});
