import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { abortLiveTransactions, openReaderDb, pageHidden, pageShown } from './open';
import { DB_NAME } from './schema';

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

describe('abortLiveTransactions (a page going into the back/forward cache)', () => {
	it('aborts the transactions still running, through idb too, and leaves finished ones alone', async () => {
		const db = await openReaderDb();
		const first = db.transaction('settings', 'readwrite');
		void first.store.put('kept', 'before');
		await first.done;
		expect(abortLiveTransactions()).toBe(0);

		// A write in flight, made through idb's shortcut and through a transaction of its own.
		const tx = db.transaction(['settings', 'outbox'], 'readwrite');
		const during = tx.objectStore('settings').put('lost', 'during');
		const shortcut = db.put('settings', 'lost too', 'shortcut');
		expect(abortLiveTransactions()).toBe(2);
		await expect(tx.done).rejects.toThrow();
		await expect(during).rejects.toThrow();
		await expect(shortcut).rejects.toThrow();

		// The database answers afterwards, without what was aborted.
		expect(await db.get('settings', 'during')).toBeUndefined();
		expect(await db.get('settings', 'shortcut')).toBeUndefined();
		expect(await db.get('settings', 'before')).toBe('kept');
	});

	it('aborts a transaction begun after the page went into the cache, until it shows again', async () => {
		const db = await openReaderDb();
		// A plain unload: the engine ends the page's transactions itself; nothing changes here.
		pageHidden(false);
		await db.put('settings', 'kept', 'unload');
		// Into the cache: a write begun by a later pagehide listener (the Undo offer's commit) or
		// by a promise's next step would be frozen mid-way; it fails at once instead.
		pageHidden(true);
		await expect(db.put('settings', 'lost', 'frozen')).rejects.toThrow();
		const tx = db.transaction('settings', 'readwrite');
		await expect(tx.done).rejects.toThrow();
		// Back from the cache: writes work again.
		pageShown();
		await db.put('settings', 'kept', 'shown');
		expect(await db.get('settings', 'frozen')).toBeUndefined();
		expect(await db.get('settings', 'shown')).toBe('kept');
		expect(await db.get('settings', 'unload')).toBe('kept');
	});
});
