/**
 * The names the page and the service worker must spell alike to share the sync engine: the Web
 * Lock that keeps one sync at a time, the Background Sync and Periodic Background Sync tags that
 * wake the worker, and the channel on which a finished sync tells every tab to refresh its screen.
 * No imports and no side effects, so either side (and the tests) can read it without starting
 * anything.
 */

/** Web Lock held for the whole of a sync, across tabs and the worker (db/names.ts). */
export { SYNC_LOCK } from '$lib/db/names';

/** Background Sync tag (one-off, when the connection is back). */
export const SYNC_TAG = 'sync';

/** Periodic Background Sync tag (installed app, where the browser offers it). */
export const PERIODIC_SYNC_TAG = 'sync-periodic';

/** How often the browser may wake the installed app to sync (it decides; this is a minimum). */
export const PERIODIC_MIN_INTERVAL_MS = 60 * 60_000;

/** BroadcastChannel on which a sync says it started, progressed or ended. */
export const SYNC_CHANNEL = 'ttrss-sync';

/** What a sync changed, for the screens to refresh only what moved. */
export interface SyncChanges {
	/** Articles stored or updated (new ones and those whose state changed elsewhere). */
	articleIds: number[];
	/** True when new articles arrived. */
	newArticles: boolean;
}

/** `source` names the tab or worker that sent it: a listener skips its own. */
export type SyncMessage = { type: 'sync-done'; at: number; changes: SyncChanges; source: string };

export type SyncPhase = 'counters' | 'new' | 'state' | 'content' | 'packs' | 'media' | 'images';

/** localStorage key (page only) for a shorter interval between syncs while visible, for tests. */
export const SYNC_INTERVAL_KEY = 'reader.syncIntervalMs';
