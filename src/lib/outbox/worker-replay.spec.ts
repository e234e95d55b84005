/**
 * The service worker's replay (src/service-worker/worker-replay.ts) with a held (undoable) change whose
 * page died before releasing it, the network up. docs/reading.md: "If the page dies without
 * sending it, the hold simply expires: any replay, the page's at the next start or the service
 * worker's, sends it then" and "A change is never lost and never waits on a page nobody sees."
 */
import { afterEach, expect, it, vi } from 'vitest';
import { storeSessionFor } from '$lib/db/device';
import { pendingItems } from './outbox';
import { enqueueIntent } from './enqueue';
import { fakeTtrss } from '$support/fake-server';

/** The worker's module (by a variable: its types are the worker's, checked by its own tsconfig). */
const workerReplay = (): Promise<{ startReplay: () => void }> => {
	const path = '../../service-worker/worker-replay';
	return import(/* @vite-ignore */ path) as Promise<{ startReplay: () => void }>;
};

afterEach(() => {
	vi.unstubAllGlobals();
	vi.useRealTimers();
});

/**
 * A signed-in session against a fake tt-rss, and the worker's replay started in a fresh module
 * copy with Background Sync (Chromium): its listeners and the sync registration to look at.
 */
async function startWorker(options: Parameters<typeof fakeTtrss>[0] = {}) {
	const server = fakeTtrss(options);
	vi.stubGlobal('fetch', server.fake.fetch);
	await storeSessionFor({
		apiUrl: 'http://tt.example/api/',
		user: 'reader',
		sessionId: 'sid-0',
		apiLevel: 15,
		stayingSignedIn: false,
		singleUser: false,
		signedInAt: Date.now()
	});
	const listeners = new Map<string, (event: unknown) => void>();
	const register = vi.fn(() => Promise.resolve());
	vi.stubGlobal('self', {
		addEventListener: (type: string, fn: (event: unknown) => void) => listeners.set(type, fn),
		registration: { sync: { register } }
	});
	vi.resetModules();
	const { startReplay } = await workerReplay();
	startReplay();
	return { server, listeners, register };
}

it('the worker sends a held change once its hold has expired, with no page left to ask', async () => {
	const { server, listeners, register } = await startWorker();
	// Only the worker's own wait is driven by the clock here (IndexedDB uses setImmediate).
	vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
	const fire = async (): Promise<'resolved' | 'rejected'> => {
		let work: Promise<unknown> = Promise.resolve();
		listeners.get('sync')?.({ tag: 'outbox', waitUntil: (p: Promise<unknown>) => (work = p) });
		return work.then(
			() => 'resolved' as const,
			() => 'rejected' as const
		);
	};

	// The reader catches up a feed (undoable: held for the toast's 5 s + 1.5 s). submitIntent
	// registers the Background Sync, which fires at once: the change is still held.
	const until = Date.now() + 6_500;
	await enqueueIntent({ type: 'catchup', feedId: 1, isCat: false, mode: 'all' }, Date.now(), {
		id: 'h',
		until
	});
	const fired = fire();
	// The tab is then closed (its pagehide release never committed). Nothing else will wake the
	// worker: Background Sync only fires again when the handler rejected or a page registers.
	await vi.waitFor(() => expect(vi.getTimerCount()).toBe(1));
	expect(server.calls()).toEqual([]);
	await vi.advanceTimersByTimeAsync(6_500);
	const outcome = await fired;
	// For the promise to hold, the sync event must not end "done" with a change still held.
	const state = {
		outcome,
		queued: (await pendingItems()).length,
		reRegistered: register.mock.calls.length
	};
	expect(state).not.toEqual({ outcome: 'resolved', queued: 1, reRegistered: 0 });
	// Here: the event waited for the hold and sent it.
	expect(state).toEqual({ outcome: 'resolved', queued: 0, reRegistered: 0 });
	expect(server.fake.ops()).toContain('catchupFeed');
});

it('the worker sends a change put off after a server failure once it comes due, in the same event', async () => {
	// The first updateArticle meets a 502 (a proxy restarting): the change is put off (30 s).
	let failed = false;
	const { server, listeners, register } = await startWorker({
		failAt: (_, r) => {
			if (failed || r.body.op !== 'updateArticle') return undefined;
			failed = true;
			return 'HTTP_502';
		}
	});
	vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
	await enqueueIntent({ type: 'flag', field: 'starred', articleIds: [3], value: true });
	let work: Promise<unknown> = Promise.resolve();
	listeners.get('sync')?.({ tag: 'outbox', waitUntil: (p: Promise<unknown>) => (work = p) });
	const outcome = work.then(
		() => 'resolved',
		() => 'rejected'
	);
	// The replay met the 502 and put the change off; the worker waits for it (its timer).
	await vi.waitFor(() => expect(failed && vi.getTimerCount() >= 1).toBe(true));
	expect((await pendingItems())[0]?.notBefore).toBeGreaterThan(Date.now());
	await vi.advanceTimersByTimeAsync(60_000);
	// Not "done" with the change still queued and nothing to wake the worker again (issue 22, 9).
	expect({
		outcome: await outcome,
		queued: (await pendingItems()).length,
		reRegistered: register.mock.calls.length
	}).toEqual({ outcome: 'resolved', queued: 0, reRegistered: 0 });
	expect(server.fake.ops().filter((op) => op === 'updateArticle')).toHaveLength(2);
});

it('a change put off for longer than the event may wait makes the event fail, to be fired again', async () => {
	const { server, listeners, register } = await startWorker();
	// Held for an hour (a backed-off change waits like this too).
	await enqueueIntent({ type: 'catchup', feedId: 1, isCat: false, mode: 'all' }, Date.now(), {
		id: 'h',
		until: Date.now() + 3_600_000
	});
	const fire = (lastChance: boolean): Promise<string> => {
		let work: Promise<unknown> = Promise.resolve();
		listeners.get('sync')?.({
			tag: 'outbox',
			lastChance,
			waitUntil: (p: Promise<unknown>) => (work = p)
		});
		return work.then(
			() => 'resolved',
			() => 'rejected'
		);
	};
	expect(await fire(false)).toBe('rejected');
	expect(register).not.toHaveBeenCalled();
	// The browser's last try: it registers again so that the change is not forgotten.
	expect(await fire(true)).toBe('rejected');
	expect(register).toHaveBeenCalledWith('outbox');
	expect(server.calls()).toEqual([]);
});
