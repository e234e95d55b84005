/** Transaction helpers every IndexedDB writer shares (the cache, the outbox). */

/** Aborts a transaction that may already have finished or aborted, without throwing. */
export function abortQuietly(tx: { abort(): void }): void {
	try {
		tx.abort();
	} catch {
		// Already finished or aborted.
	}
}
