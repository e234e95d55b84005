/** Transaction helpers every IndexedDB writer shares (the cache, the outbox). */
import type { IDBPTransaction, StoreNames } from 'idb';
import type { ReaderDatabase } from './open';
import type { ReaderDB } from './schema';

/** Aborts a transaction that may already have finished or aborted, without throwing. */
export function abortQuietly(tx: { abort(): void }): void {
	try {
		tx.abort();
	} catch {
		// Already finished or aborted.
	}
}

/**
 * Runs `write` in one readwrite transaction over `stores` and resolves with its result once the
 * transaction is durable. When `write` throws (or the commit fails), the transaction is aborted,
 * so none of its writes land, and the error goes to the caller (a quota retry, a fallback).
 */
export async function writeTx<const S extends StoreNames<ReaderDB>[], T>(
	db: ReaderDatabase,
	stores: S,
	write: (tx: IDBPTransaction<ReaderDB, S, 'readwrite'>) => Promise<T>
): Promise<T> {
	const tx = db.transaction(stores, 'readwrite');
	try {
		const result = await write(tx);
		await tx.done;
		return result;
	} catch (error) {
		abortQuietly(tx);
		throw error;
	}
}
