/**
 * The worker's side of the outbox: replays it on Background Sync (`sync` tag `outbox`, which the
 * browser fires even after every tab is closed) and, where Background Sync is missing, whenever
 * the worker starts or has activated. The client comes from the session kept in IndexedDB.
 * Never inside the activate step: until it ends, every request of the pages waits for the new
 * worker, and a replay there would hold them behind network calls to a server that may be slow.
 */
import { clientFromStoredSession } from '../lib/outbox/session-client';
import { OUTBOX_SYNC_TAG } from '../lib/outbox/contract';
import { replayOutbox } from '../lib/outbox/replay';

const sw = self as unknown as ServiceWorkerGlobalScope;

interface SyncEventLike extends ExtendableEvent {
	tag: string;
}

interface SyncManagerLike {
	register(tag: string): Promise<void>;
}

async function replayFromWorker(): Promise<void> {
	const result = await replayOutbox({ client: () => clientFromStoredSession() });
	// Rejecting tells the browser to fire the sync again later (with its own backoff).
	if (result.stopped === 'offline') throw new Error('outbox: server unreachable, retry later');
}

function syncManager(): SyncManagerLike | undefined {
	return (sw.registration as unknown as { sync?: SyncManagerLike }).sync;
}

/** Wire once from index.ts: `startReplay()` at top level. */
export function startReplay(): void {
	sw.addEventListener('sync', (event) => {
		const sync = event as SyncEventLike;
		if (sync.tag === OUTBOX_SYNC_TAG) sync.waitUntil(replayFromWorker());
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
