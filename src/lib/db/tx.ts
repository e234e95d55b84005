/**
 * Transaction helpers every IndexedDB writer shares (the cache, the outbox). The write that frees
 * room on a full quota and tries again, `writeTxWithRoom`, is quota.ts's.
 */
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
	// An abort (below, or a refused request) rejects `done`: the caller hears of it once, through
	// the error `write` or the commit throws, not as an unhandled rejection as well.
	tx.done.catch(() => undefined);
	try {
		const result = await write(tx);
		await tx.done;
		return result;
	} catch (error) {
		abortQuietly(tx);
		throw error;
	}
}

/** Runs `read` in one readonly transaction over `stores`; resolves with its result once it ends. */
export async function readTx<const S extends StoreNames<ReaderDB>[], T>(
	db: ReaderDatabase,
	stores: S,
	read: (tx: IDBPTransaction<ReaderDB, S, 'readonly'>) => Promise<T>
): Promise<T> {
	const tx = db.transaction(stores, 'readonly');
	tx.done.catch(() => undefined); // as in writeTx
	try {
		const result = await read(tx);
		await tx.done;
		return result;
	} catch (error) {
		abortQuietly(tx);
		throw error;
	}
}
