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
let firstScreen!: () => void;
vi.mock('$lib/boot/early-reads', () => ({
	afterFirstScreen: () => new Promise<void>((resolve) => (firstScreen = resolve))
}));
vi.mock('./replay-triggers', () => ({ startReplayTriggers }));
vi.mock('./counter-sync', () => ({ syncCountersWithOutbox }));
vi.mock('./sync-triggers', () => ({ startSyncTriggers }));

const { startApp } = await import('./lifecycle');

beforeEach(() => {
	running.clear();
	vi.clearAllMocks();
});

describe('the app lifecycle', () => {
	it('starts the replay triggers and counters at once, the sync after the first screen, once', async () => {
		const stop = startApp();
		expect(startApp()).toBe(stop);
		expect([...running].sort()).toEqual(['counters', 'replay']);
		firstScreen();
		await vi.waitFor(() => expect(running.has('sync')).toBe(true));
		expect(startReplayTriggers).toHaveBeenCalledTimes(1);
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
		expect([...running].sort()).toEqual(['counters', 'replay']);
		stop();
	});

	it('a stop before the first screen keeps the sync from starting', async () => {
		startApp()();
		firstScreen();
		await vi.dynamicImportSettled();
		expect(startSyncTriggers).not.toHaveBeenCalled();
	});
});
