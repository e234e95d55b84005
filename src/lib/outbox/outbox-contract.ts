/**
 * The names the page and the service worker must spell alike to share the outbox: the Background
 * Sync tag that wakes the worker's replay, the channel that says the outbox changed, and the
 * settings key of the replay's last outcome. No imports and no side effects, so either side (and
 * the tests) can read it without starting anything.
 */

/** The Background Sync tag: the page registers it, the worker replays when it fires. */
export const OUTBOX_SYNC_TAG = 'outbox';

/** The BroadcastChannel on which every tab and the worker say the outbox or failed list changed. */
export const OUTBOX_CHANNEL = 'ttrss-outbox';

/** What is posted on `OUTBOX_CHANNEL`. */
export interface OutboxChangedMessage {
	type: 'outbox-changed';
}

/** The replay's status key and Web Lock: db/names.ts, where the database layer reads them too. */
export { REPLAY_LOCK, REPLAY_STATUS_KEY } from '$lib/db/names';
