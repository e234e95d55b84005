/**
 * The door to the reader's IndexedDB for every folder but db/: nothing outside db/ opens the
 * database (`openReaderDb`), holds a connection or starts a transaction itself (the lint fails on
 * each). What the others read and write goes through the verbs below: named reads of one request
 * (the tree, an article, the outbox…) and, for a change that must read and write several records
 * at once, a transaction over named stores (`readStores`, `writeStores`; quota.ts `writeStoresWithRoom`)
 * whose body gets those stores' handles, never the transaction or the database. The connection,
 * the abort on a failure, the full-quota retry and the handled `done` stay here (open.ts, tx.ts,
 * quota.ts). `writeStoresWithRoom`, the write that may free room first, is quota.ts's, so the
 * eviction code stays off the first screen, which only reads. The key-value stores have their own
 * door, kv.ts.
 */
import type { IDBPObjectStore, IDBPTransaction, StoreNames } from 'idb';
import { openReaderDb, type ReaderDatabase } from './open';
import type { FailedItem, OutboxItem, ReaderDB, StoredArticle, StoredTree } from './schema';
import { readTx, writeTx } from './tx';

export type StoreName = StoreNames<ReaderDB>;

/** The handles of a transaction's stores, by name. */
export type Stores<S extends StoreName[], M extends IDBTransactionMode> = {
	readonly [K in S[number]]: IDBPObjectStore<ReaderDB, S, K, M>;
};

/** The handles of `names` in `tx`, by name (readStores, writeStores, quota.ts writeStoresWithRoom). */
export function storeHandles<S extends StoreName[], M extends IDBTransactionMode>(
	tx: IDBPTransaction<ReaderDB, S, M>,
	names: S
): Stores<S, M> {
	const stores: Partial<Record<StoreName, unknown>> = {};
	for (const name of names) stores[name] = tx.objectStore(name);
	return stores as Stores<S, M>;
}

/** Runs `read` in one readonly transaction over `names` (tx.ts readTx). */
export async function readStores<const S extends StoreName[], T>(
	names: S,
	read: (stores: Stores<S, 'readonly'>) => Promise<T>,
	db?: ReaderDatabase
): Promise<T> {
	return readTx(db ?? (await openReaderDb()), names, (tx) => read(storeHandles(tx, names)));
}

/** Runs `write` in one readwrite transaction over `names`, all or nothing (tx.ts writeTx). */
export async function writeStores<const S extends StoreName[], T>(
	names: S,
	write: (stores: Stores<S, 'readwrite'>) => Promise<T>,
	db?: ReaderDatabase
): Promise<T> {
	return writeTx(db ?? (await openReaderDb()), names, (tx) => write(storeHandles(tx, names)));
}

// ------------------------------------------------------------------ the cache

/** The cached feed tree and its counters. */
export async function storedTree(): Promise<StoredTree | undefined> {
	return (await openReaderDb()).get('tree', 'current');
}

/** One cached article (headline, and body when it has one). */
export async function storedArticle(id: number): Promise<StoredArticle | undefined> {
	return (await openReaderDb()).get('articles', id);
}

// ------------------------------------------------------------------ the outbox

/** Every queued change, oldest first. */
export async function outboxItems(): Promise<OutboxItem[]> {
	return (await openReaderDb()).getAll('outbox');
}

/** How many changes are queued. */
export async function outboxCount(): Promise<number> {
	return (await openReaderDb()).count('outbox');
}

/** The changes the server refused. */
export async function failedOutboxItems(): Promise<FailedItem[]> {
	return (await openReaderDb()).getAll('failed');
}
