/**
 * The worker's side of the outbox: replays it on Background Sync (`sync` tag `outbox`, which the
 * browser fires even after every tab is closed) and, where Background Sync is missing, whenever
 * the worker starts or has activated. The client comes from the session kept in IndexedDB.
 * Never inside the activate step: until it ends, every request of the pages waits for the new
 * worker, and a replay there would hold them behind network calls to a server that may be slow.
 */
import { clientFromStoredSession } from '../lib/outbox/session-client';
import { OUTBOX_SYNC_TAG } from '../lib/outbox/outbox-contract';
import { replayOutbox } from '../lib/outbox/replay';
import { pendingItems } from '../lib/outbox/outbox';
import { speakStoredLanguage } from './language';

const sw = self as unknown as ServiceWorkerGlobalScope;

interface SyncEventLike extends ExtendableEvent {
	tag: string;
	/** Chromium: the browser will not fire this registration again if the handler rejects. */
	lastChance?: boolean;
}

interface SyncManagerLike {
	register(tag: string): Promise<void>;
}

/**
 * How long one replay from the worker waits, within its event's lifetime, for a change that is
 * held for an Undo (6.5 s) or put off after a passing failure (30 s, 1 min) to come due. Browsers
 * let a sync event run for minutes; this stays well inside that.
 */
export const WORKER_WAIT_MS = 60_000;

/** The earliest time a held or put-off change becomes sendable, if one is waiting. */
async function nextDue(now: number): Promise<number | undefined> {
	let due: number | undefined;
	for (const item of await pendingItems()) {
		for (const at of [item.heldUntil, item.notBefore]) {
			if (at !== undefined && at > now) due = Math.min(due ?? Infinity, at);
		}
	}
	return due;
}

/**
 * Replays, and while a change is still held or put off, waits for it and replays again: once the
 * page that held it is gone, nothing else would wake the worker for it (Background Sync fires
 * again only when the handler rejected or a page registers). A wait longer than WORKER_WAIT_MS
 * rejects instead, so the browser fires the sync again later (with its own backoff); on the last
 * chance it registers again first.
 */
async function replayFromWorker(event?: SyncEventLike): Promise<void> {
	const started = Date.now();
	await speakStoredLanguage(); // a refusal is kept in words, shown by the page later
	for (;;) {
		const result = await replayOutbox({ client: () => clientFromStoredSession() });
		// Rejecting tells the browser to fire the sync again later (with its own backoff).
		if (result.stopped === 'offline') throw new Error('outbox: server unreachable, retry later');
		if (result.stopped !== undefined || result.remaining === 0) return;
		const due = await nextDue(Date.now());
		if (due === undefined) return;
		if (due - started > WORKER_WAIT_MS) {
			if (event?.lastChance) await syncManager()?.register(OUTBOX_SYNC_TAG);
			throw new Error('outbox: a change waits for later, retry then');
		}
		await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
	}
}

function syncManager(): SyncManagerLike | undefined {
	return (sw.registration as unknown as { sync?: SyncManagerLike }).sync;
}

/** Wire once from index.ts: `startReplay()` at top level. */
export function startReplay(): void {
	sw.addEventListener('sync', (event) => {
		const sync = event as SyncEventLike;
		if (sync.tag === OUTBOX_SYNC_TAG) sync.waitUntil(replayFromWorker(sync));
	});
	// Without Background Sync the worker still replays whenever it wakes up.
	if (!syncManager()) void replayFromWorker().catch(() => undefined);
}

/**
 * Call from the activate event with the activation's own work: once that is done, replays what
 * earlier versions or closed tabs left queued: through a Background Sync where there is one (its
 * event keeps the worker alive for the replay), else directly.
 */
export function replayAfterActivation(activation: Promise<unknown>): void {
	void activation
		.catch(() => undefined)
		.then(async () => {
			const sync = syncManager();
			if (sync) await sync.register(OUTBOX_SYNC_TAG);
			else await replayFromWorker();
		})
		.catch(() => undefined);
}
