/**
 * The worker's side of the sync engine (src/lib/sync): a Background Sync with the `sync` tag (the
 * page asks for one when a sync failed for want of a network) and Periodic Background Sync (the
 * installed app, where the browser offers it) bring the offline copy up to date with every tab
 * closed. Both keep the worker alive through the sync; the client comes from the stored session.
 */
import { clientFromStoredSession } from '../lib/outbox/session-client';
import { accountOfClient } from '../lib/db/account';
import { cacheImages } from '../lib/offline/images';
import { replayOutbox } from '../lib/outbox/replay';
import { PERIODIC_SYNC_TAG, SYNC_TAG } from '../lib/sync/contract';
import { runSync } from '../lib/sync/run-sync';
import { loadArticleCount } from '../lib/sync/state';
import { speakStoredLanguage } from './language';
import { cacheEnclosuresHere } from './worker-media';

const sw = self as unknown as ServiceWorkerGlobalScope;

interface SyncEventLike extends ExtendableEvent {
	tag: string;
}

async function syncFromWorker(): Promise<void> {
	// Its alerts and a refused change's words in the reader's language.
	await speakStoredLanguage();
	// The reader's own changes first (joining a replay already running): the sync then reads a
	// server that has them, and never takes the first requests of a connection coming back.
	const replay = await replayOutbox({ client: () => clientFromStoredSession() });
	if (replay.stopped === 'offline') throw new Error('sync: server unreachable, retry later');
	const client = await clientFromStoredSession();
	if (!client) return;
	// What the sync fetches is kept only while the cache is still this account's.
	const account = accountOfClient(client);
	await runSync({
		client,
		articleCount: await loadArticleCount(),
		cacheImages: (urls, signal) => cacheImages(urls, account, signal),
		cacheEnclosures: (urls, signal) => cacheEnclosuresHere(urls, account, signal)
	});
	// What the reader's rules queued for the new articles (src/lib/rules) is sent in the same wake.
	await replayOutbox({ client: () => clientFromStoredSession() });
}

/** Wire once from index.ts: `startSync()` at top level. */
export function startSync(): void {
	sw.addEventListener('sync', (event) => {
		const sync = event as SyncEventLike;
		// Rejecting (no network again) makes the browser fire it later, with its own backoff.
		if (sync.tag === SYNC_TAG) sync.waitUntil(syncFromWorker());
	});
	sw.addEventListener('periodicsync' as keyof ServiceWorkerGlobalScopeEventMap, (event) => {
		const periodic = event as unknown as SyncEventLike;
		if (periodic.tag === PERIODIC_SYNC_TAG)
			periodic.waitUntil(syncFromWorker().catch(() => undefined));
	});
}
