/**
 * The worker's side of the outbox: replays it on Background Sync (`sync` tag `outbox`, which the
 * browser fires even after every tab is closed) and, where Background Sync is missing, whenever
 * the worker starts or activates. The client comes from the session kept in IndexedDB.
 */
import { clientFromStoredSession } from '../lib/outbox/session-client';
import { replayOutbox } from '../lib/outbox/replay';

const sw = self as unknown as ServiceWorkerGlobalScope;

interface SyncEventLike extends ExtendableEvent {
	tag: string;
}

async function replayFromWorker(): Promise<void> {
	const result = await replayOutbox({ client: () => clientFromStoredSession() });
	// Rejecting tells the browser to fire the sync again later (with its own backoff).
	if (result.stopped === 'offline') throw new Error('outbox: server unreachable, retry later');
}

function hasBackgroundSync(): boolean {
	return 'sync' in sw.registration;
}

/** Wire once from index.ts: `startReplay()` at top level. */
export function startReplay(): void {
	sw.addEventListener('sync', (event) => {
		const sync = event as SyncEventLike;
		if (sync.tag === 'outbox') sync.waitUntil(replayFromWorker());
	});
	// Without Background Sync the worker still replays whenever it wakes up.
	if (!hasBackgroundSync()) void replayFromWorker().catch(() => undefined);
}

/** Call from the activate event: replays what earlier versions or closed tabs left queued. */
export function replayOnActivate(event: ExtendableEvent): void {
	event.waitUntil(replayFromWorker().catch(() => undefined));
}
