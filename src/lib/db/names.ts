/**
 * Names of what the app keeps on this device beside its own IndexedDB schema, which the database
 * layer must know to wipe or guard an account's data (db/device.ts): the higher modules that own
 * them (outbox, sync, offline, boot) re-export them from here, so each is spelled once and the
 * database layer never imports upward for a string. No imports and no side effects: the page, the
 * worker and the tests read it without starting anything.
 */

/** The `settings` store key of the replay's last outcome (outbox/status.ts `ReplayStatus`). */
export const REPLAY_STATUS_KEY = 'outbox.status';

/** The `settings` store key of the changes the replay sent lately (outbox/sent-log.ts). */
export const SENT_LOG_KEY = 'sent-log';

/** The Web Lock one replay at a time holds, across tabs and the worker (outbox/replay.ts). */
export const REPLAY_LOCK = 'outbox-replay';

/** Web Lock held for the whole of a sync, across tabs and the worker (sync/). */
export const SYNC_LOCK = 'ttrss-sync';

/** Cache Storage: the account's article images (offline/images.ts). */
export const IMAGE_CACHE = 'images-v1';
/** Enclosures of the packs that keep them (media.ts); one account's, like the images. */
export const MEDIA_CACHE = 'media-v1';
/** Enclosures that failed or were refused, with when to try again (media.ts); the same account's. */
export const MEDIA_FAILURES_CACHE = 'media-failures-v1';
/** The worker's start snapshot of the account's first screen (boot/snapshot-contract.ts). */
export const SNAPSHOT_CACHE = 'start-snapshot';
