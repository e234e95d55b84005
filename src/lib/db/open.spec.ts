import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { openDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import { openReaderDb, resetReaderDbForTests } from './open';
import { DB_NAME } from './schema';

beforeEach(() => {
	globalThis.indexedDB = new IDBFactory();
	resetReaderDbForTests();
});

describe('openReaderDb', () => {
	it('tries again after a failed open instead of keeping the failure', async () => {
		// A newer version of the database (another build in another tab) makes this open fail.
		const newer = await openDB(DB_NAME, 999);
		newer.close();
		await expect(openReaderDb()).rejects.toThrow();

		// The obstacle goes away (here: the database is removed); the next call must open it.
		await new Promise<void>((resolve, reject) => {
			const request = indexedDB.deleteDatabase(DB_NAME);
			request.onsuccess = () => resolve();
			request.onerror = () => reject(new Error('deleting the database failed'));
		});
		const db = await openReaderDb();
		expect(db.objectStoreNames.contains('outbox')).toBe(true);
	});

	it('shares one connection between callers', async () => {
		const [a, b] = await Promise.all([openReaderDb(), openReaderDb()]);
		expect(a).toBe(b);
	});
});
