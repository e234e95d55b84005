/**
 * How long a start waits for its first IndexedDB read before telling the reader that the browser's
 * storage is stuck (components/StorageStuck.svelte). A healthy start reads in well under a second,
 * even at 4× CPU on a big account; the first read after an upgrade may take a few.
 */
export const STORAGE_WAIT_MS = 6_000;
