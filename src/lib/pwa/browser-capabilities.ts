/**
 * Features some engines lack, detected once, so the app can say what it does instead where the
 * reader would care (docs/engines.md lists each one per engine).
 */

/**
 * Background Sync (Chromium only): the worker sends the outbox even after the tab is closed.
 * Firefox and Safari lack it; there the page sends changes while it is open (on start, when back
 * online or visible, and on its own retries).
 */
export function hasBackgroundSync(scope: object = globalThis): boolean {
	return 'SyncManager' in scope;
}
