/**
 * The typed door to the two key-value stores, `settings` (small values the worker needs too) and
 * `sync` (the sync's, alerts', muted words' and import's bookkeeping). Each key is declared once,
 * by the module that owns it, with its store, name, type (a `parse` that says whether a stored
 * value is one) and default; every read and write goes through that declaration, so a key's name
 * is spelled in one place and a value of the wrong shape (an older version's, a hand edit, a bug)
 * is met with the default and reported, never thrown to the reader.
 *
 * Other modules may read an owner's key through its declaration; they write it through the
 * owner's functions (one writer a key).
 */
import { openReaderDb, type ReaderDatabase } from './open';
import { decodeStored, type StoredKey } from './stored-key';
import { writeTx } from './tx';

export * from './stored-key';

/** Reads `key` in a transaction of its own. */
export async function getStored<T>(key: StoredKey<T>, db?: ReaderDatabase): Promise<T> {
	const database = db ?? (await openReaderDb());
	return decodeStored(key, await database.get(key.store, key.name));
}

/** Writes `key` in a transaction of its own. */
export async function putStored<T>(
	key: StoredKey<T>,
	value: T,
	db?: ReaderDatabase
): Promise<void> {
	const database = db ?? (await openReaderDb());
	await database.put(key.store, value, key.name);
}

/**
 * Reads `key` and writes `change(value)` in one transaction, so two writers (the page and the
 * worker, where Web Locks are missing) never both take what one of them took. Returns the value
 * read.
 */
export async function updateStored<T>(
	key: StoredKey<T>,
	change: (value: T) => T,
	db?: ReaderDatabase
): Promise<T> {
	const database = db ?? (await openReaderDb());
	return writeTx(database, [key.store], async (tx) => {
		const store = tx.objectStore(key.store);
		const before = decodeStored(key, await store.get(key.name));
		await store.put(change(before), key.name);
		return before;
	});
}

/** Forgets `key` (a read then gives its default). */
export async function deleteStored(key: StoredKey<unknown>, db?: ReaderDatabase): Promise<void> {
	const database = db ?? (await openReaderDb());
	await database.delete(key.store, key.name);
}
