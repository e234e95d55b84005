/** The write-ahead journal's durable copy (journal-db.ts): stored, read back, never a start's wait. */
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import {
	clearJournalEntries,
	deleteJournalEntries,
	JOURNAL_DB,
	putJournalEntry,
	readJournalEntries,
	resetJournalDbForTests
} from './journal-db';

beforeEach(() => {
	globalThis.indexedDB = new IDBFactory();
	resetJournalDbForTests();
});

describe('the journal database', () => {
	it('stores, deletes and clears entries by id', async () => {
		await putJournalEntry({ id: 'a' });
		await putJournalEntry({ id: 'b' });
		expect(await readJournalEntries()).toEqual([{ id: 'a' }, { id: 'b' }]);
		await deleteJournalEntries(['a']);
		expect(await readJournalEntries()).toEqual([{ id: 'b' }]);
		await clearJournalEntries();
		expect(await readJournalEntries()).toEqual([]);
	});

	it('a database held by a transaction that never ends reads as empty, in time', async () => {
		await putJournalEntry({ id: 'a' });
		let holding = true;
		// Another connection holds the store with a write that never finishes (a page frozen mid-write).
		await new Promise<void>((resolve) => {
			const open = indexedDB.open(JOURNAL_DB);
			open.onsuccess = () => {
				const store = open.result.transaction('entries', 'readwrite').objectStore('entries');
				const spin = (): void => {
					if (holding) store.get('none').onsuccess = spin;
				};
				spin();
				resolve();
			};
		});
		// It answers (within the test's limit) rather than waiting for the write.
		expect(await readJournalEntries()).toEqual([]);
		holding = false;
	});
});
