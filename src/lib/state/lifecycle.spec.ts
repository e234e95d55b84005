import { beforeEach, describe, expect, it, vi } from 'vitest';
import { emitAccountEvent } from '$lib/db/account-events';

// What the lifecycle starts are stand-ins: this tests that it starts each once and stops them all.
const running = new Set<string>();
function starter(name: string) {
	return vi.fn(() => {
		running.add(name);
		return () => void running.delete(name);
	});
}
const startReplayTriggers = starter('replay');
const syncCountersWithOutbox = starter('counters');
const startSyncTriggers = starter('sync');
// One first screen per test, as in a page: every caller waits for the same one.
let firstScreen!: () => void;
let firstScreenShown!: Promise<void>;
vi.mock('$lib/boot/early-reads', () => ({
	afterFirstScreen: () => firstScreenShown
}));
vi.mock('./replay-triggers', () => ({ startReplayTriggers }));
vi.mock('./counter-sync', () => ({ syncCountersWithOutbox }));
vi.mock('./sync-triggers', () => ({ startSyncTriggers }));

const { startApp } = await import('./lifecycle');

beforeEach(() => {
	firstScreenShown = new Promise<void>((resolve) => (firstScreen = resolve));
	running.clear();
	vi.clearAllMocks();
});

describe('the app lifecycle', () => {
	it('starts the counters at once, the replay triggers and the sync after the first screen, once', async () => {
		const stop = startApp();
		expect(startApp()).toBe(stop);
		expect([...running]).toEqual(['counters']);
		firstScreen();
		await vi.waitFor(() => expect([...running].sort()).toEqual(['counters', 'replay', 'sync']));
		expect(startReplayTriggers).toHaveBeenCalledTimes(1);
		expect(startSyncTriggers).toHaveBeenCalledTimes(1);
		stop();
		expect(running.size).toBe(0);
	});

	it('stops everything at sign-out, and starts again for the next sign-in', async () => {
		startApp();
		firstScreen();
		await vi.waitFor(() => expect(running.has('sync')).toBe(true));
		await emitAccountEvent({ type: 'signed-out' });
		expect(running.size).toBe(0);
		const stop = startApp();
		await vi.waitFor(() => expect([...running].sort()).toEqual(['counters', 'replay', 'sync']));
		stop();
		expect(running.size).toBe(0);
	});

	it('a stop before the first screen keeps the replay triggers and the sync from starting', async () => {
		startApp()();
		firstScreen();
		await vi.dynamicImportSettled();
		expect(startReplayTriggers).not.toHaveBeenCalled();
		expect(startSyncTriggers).not.toHaveBeenCalled();
	});
});
