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
import { writeTx } from './tx';

export type KvStoreName = 'settings' | 'sync';

export interface StoredKey<T> {
	readonly store: KvStoreName;
	/** The key in its store. */
	readonly name: string;
	/** The module that owns (writes) it, for the reader of a report or of the code. */
	readonly owner: string;
	/** What a report names: the name, or a family's prefix (a name may carry an account). */
	readonly label: string;
	/** The stored value as a T, or `undefined` when it is not one. */
	readonly parse: (raw: unknown) => T | undefined;
	/** The value when nothing is stored, or what is stored is not a T (a fresh copy each time). */
	readonly fallback: () => T;
}

interface Declaration<T> {
	store: KvStoreName;
	owner: string;
	parse: (raw: unknown) => T | undefined;
	fallback: () => T;
}

/** Declares one key. */
export function storedKey<T>(declaration: Declaration<T> & { name: string }): StoredKey<T> {
	return Object.freeze({ ...declaration, label: declaration.name });
}

/** Declares a key a name apart per account (or other id): `${prefix}${id}`. */
export function storedKeyFamily<T>(
	declaration: Declaration<T> & { prefix: string }
): (id: string) => StoredKey<T> {
	const { prefix, ...rest } = declaration;
	return (id) => Object.freeze({ ...rest, name: `${prefix}${id}`, label: `${prefix}…` });
}

type BadValueListener = (key: StoredKey<unknown>) => void;
const listeners = new Set<BadValueListener>();

/** Hears of every stored value that was not its key's type (the default was used instead). */
export function onBadStoredValue(listener: BadValueListener): () => void {
	listeners.add(listener);
	return () => listeners.delete(listener);
}

function reportBadValue(key: StoredKey<unknown>): void {
	if (listeners.size === 0) {
		// The label, never the value or an account's name: either may be private.
		console.warn(
			`Stored ${key.store}/${key.label} (${key.owner}) is not valid; its default is used`
		);
	}
	for (const listener of listeners) listener(key);
}

/** What a stored value means for `key`: the value, or the default when absent or not a T. */
export function decodeStored<T>(key: StoredKey<T>, raw: unknown): T {
	if (raw === undefined) return key.fallback();
	const value = key.parse(raw);
	if (value !== undefined) return value;
	reportBadValue(key);
	return key.fallback();
}

/** The part of an object store (or an open transaction's store) a read needs. */
export interface KvReadable {
	get(key: string): Promise<unknown>;
}
export interface KvWritable extends KvReadable {
	put(value: unknown, key: string): Promise<unknown>;
	delete(key: string): Promise<unknown>;
}

/** Reads `key` from its store inside a transaction the caller holds (`tx.objectStore(key.store)`). */
export async function readIn<T>(store: KvReadable, key: StoredKey<T>): Promise<T> {
	return decodeStored(key, await store.get(key.name));
}

/** Writes `key` inside a transaction the caller holds. */
export async function writeIn<T>(store: KvWritable, key: StoredKey<T>, value: T): Promise<void> {
	await store.put(value, key.name);
}

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

/**
 * Parsers for the common shapes: function declarations, so a declaration may use them while the
 * modules load in a loop (open.ts → migrations.ts → keys.ts → kv.ts).
 */
export function isString(raw: unknown): string | undefined {
	return typeof raw === 'string' ? raw : undefined;
}
export function isFiniteNumber(raw: unknown): number | undefined {
	return typeof raw === 'number' && Number.isFinite(raw) ? raw : undefined;
}
export function isRecord(raw: unknown): Record<string, unknown> | undefined {
	return typeof raw === 'object' && raw !== null && !Array.isArray(raw)
		? (raw as Record<string, unknown>)
		: undefined;
}
