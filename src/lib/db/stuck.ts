/**
 * How long a start waits for its first IndexedDB read before telling the reader that the browser's
 * storage is stuck (components/StorageStuck.svelte). A healthy start reads in well under a second,
 * even at 4× CPU on a big account; the first read after an upgrade may take a few.
 */
export const STORAGE_WAIT_MS = 6_000;

/**
 * How long a start waits for the write-ahead journal's recovery (hooks.client.ts) before drawing
 * the first screen without it. Storage that does not answer (WebKit's frozen transaction, docs/
 * engines.md) must not keep the app from starting and saying so (chaos seed 4700007: a blank page);
 * the recovery goes on, and queues the change when storage answers.
 */
export const RECOVERY_WAIT_MS = 1_500;
