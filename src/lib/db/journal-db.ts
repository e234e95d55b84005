/**
 * The write-ahead journal's durable copy (state/write-ahead.ts): a database of its own, apart from
 * the reader's (db/open.ts), so that writing an entry never waits behind the cache's long
 * transactions (a sync's page of articles). Local storage keeps the journal across a reload, but a
 * browser killed outright (a phone's system ending the app) loses what the page wrote there in the
 * last seconds (Chromium commits local storage in batches); an IndexedDB transaction, once
 * committed, survives (chaos seeds 5000012 and 5000019). Entries are stored as written (the
 * journal parses what it reads back). Framework-free; every call gives up quietly when IndexedDB
 * is not there or refuses: the local storage copy still stands.
 */
import { openDB, type IDBPDatabase } from 'idb';
import { connectionOnce } from './open';

/** The journal's own database (wiped with the account, db/device.ts). */
export const JOURNAL_DB = 'reader-journal';
const STORE = 'entries';

// Its transactions are aborted if the page goes into WebKit's back/forward cache mid-write, as
// the reader's database's are (open.ts).
const journal = connectionOnce<unknown>((blocking) =>
	openDB(JOURNAL_DB, 1, {
		upgrade(db) {
			db.createObjectStore(STORE, { keyPath: 'id' });
		},
		blocking
	})
);
const journalDb = (): Promise<IDBPDatabase> => journal.get();

const available = (): boolean => typeof indexedDB !== 'undefined';

/** Stores an entry (`id` its key). Resolves once committed, or at once when it cannot be. */
export async function putJournalEntry(entry: { readonly id: string }): Promise<void> {
	if (!available()) return;
	try {
		await (await journalDb()).put(STORE, entry);
	} catch {
		// Full or refused: the local storage copy stands.
	}
}

/** Deletes these entries, in one transaction. */
export async function deleteJournalEntries(ids: readonly string[]): Promise<void> {
	if (!available() || ids.length === 0) return;
	try {
		const tx = (await journalDb()).transaction(STORE, 'readwrite');
		await Promise.all([...ids.map((id) => tx.store.delete(id)), tx.done]);
	} catch {
		// Gone with the database, or refused: a start drops an entry whose change is settled.
	}
}

/**
 * A start never waits longer than this for the journal's database: one held by a transaction a
 * browser froze (db/open.ts) must not keep the first screen away; local storage's copy stands.
 */
const READ_LIMIT_MS = 1_500;

/** Every entry stored, unparsed ([] when the database cannot be read within READ_LIMIT_MS). */
export async function readJournalEntries(): Promise<unknown[]> {
	if (!available()) return [];
	let timer: ReturnType<typeof setTimeout> | undefined;
	const late = new Promise<unknown[]>((resolve) => {
		timer = setTimeout(() => resolve([]), READ_LIMIT_MS);
	});
	const read = journalDb()
		.then((db): Promise<unknown[]> => db.getAll(STORE))
		.catch((): unknown[] => []);
	try {
		return await Promise.race([read, late]);
	} finally {
		clearTimeout(timer);
	}
}

/** Sign-out: every entry goes (db/device.ts `wipeAccount`). */
export async function clearJournalEntries(): Promise<void> {
	if (!available()) return;
	try {
		await (await journalDb()).clear(STORE);
	} catch {
		// Nothing stored, or the database is gone.
	}
}

/** Tests: the next call opens the database again (a fresh fake IndexedDB). */
export function resetJournalDbForTests(): void {
	journal.reset();
}
