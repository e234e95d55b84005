/**
 * A key of the two key-value stores (`settings`, `sync`), declared once by its owner, and what a
 * stored value means for it: the half of db/kv.ts that opens no database, so the migrations (which
 * write the cache's owner, db/keys.ts) can use it while the database that runs them is opening.
 * db/kv.ts re-exports all of it beside the reads and writes in transactions of their own.
 */
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

/** Parsers for the common shapes. */
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
