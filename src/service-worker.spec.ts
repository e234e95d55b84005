/** The worker wiring (src/service-worker/): when it replays the outbox around its activation. */
import { describe, expect, it, vi } from 'vitest';

// A minimal worker scope: what index.ts and worker-replay.ts touch.
type Listener = (event: unknown) => void;
const listeners = new Map<string, Listener[]>();
const register = vi.fn(() => Promise.resolve());
const scope = {
	addEventListener: (type: string, listener: Listener) => {
		listeners.set(type, [...(listeners.get(type) ?? []), listener]);
	},
	registration: {} as { sync?: { register: typeof register } },
	clients: { claim: () => Promise.resolve() }
};
Object.assign(globalThis, { self: scope });

// The replay never ends here: a server that does not answer.
const replayOutbox = vi.fn(() => new Promise(() => undefined));
vi.mock('$lib/outbox/replay', () => ({ replayOutbox }));
vi.mock('$lib/outbox/session-client', () => ({ clientFromStoredSession: vi.fn() }));
vi.mock('./service-worker/cache', () => ({
	deleteOldCaches: () => Promise.resolve(),
	handleFetch: () => false,
	precache: () => Promise.resolve(),
	routeImmutableFromCache: () => undefined
}));
vi.mock('./service-worker/worker-images', () => ({
	handleImageFetch: () => undefined,
	handleImageMessage: () => undefined,
	startImageCache: () => undefined
}));
vi.mock('./service-worker/messaging', () => ({ handleMessage: () => undefined }));

async function activate(): Promise<{ settled: () => boolean }> {
	const waits: Promise<unknown>[] = [];
	for (const listener of listeners.get('activate') ?? []) {
		listener({ waitUntil: (p: Promise<unknown>) => waits.push(p) });
	}
	let settled = false;
	void Promise.all(waits).then(() => (settled = true));
	// Let the activation's own (instant) work and what follows it run.
	for (let i = 0; i < 10; i++) await Promise.resolve();
	return { settled: () => settled };
}

describe('the worker replays after activation, not inside it', () => {
	it('activation ends while the replay is still waiting for the server', async () => {
		// Not a literal path: the type checker must not pull the worker's `no-default-lib` reference
		// (webworker types only) into the page project, where it would hide the DOM's types.
		const entry = './service-worker/index';
		await import(/* @vite-ignore */ entry);
		// The start-up replay (no Background Sync here), once the worker has read the language.
		await vi.waitFor(() => expect(replayOutbox).toHaveBeenCalled());
		replayOutbox.mockClear();
		const { settled } = await activate();
		expect(settled()).toBe(true);
		// The replay starts after the worker has read the reader's language (IndexedDB, macrotasks).
		await vi.waitFor(() => expect(replayOutbox).toHaveBeenCalledTimes(1));
	});

	it('with Background Sync, activation asks for a sync instead of replaying itself', async () => {
		scope.registration.sync = { register };
		replayOutbox.mockClear();
		const { settled } = await activate();
		expect(settled()).toBe(true);
		expect(register).toHaveBeenCalledWith('outbox');
		expect(replayOutbox).not.toHaveBeenCalled();
	});
});
