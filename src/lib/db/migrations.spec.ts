import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { openDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import { migrations } from './migrations';
import { openReaderDb, resetReaderDbForTests } from './open';
import { DB_NAME, type ReaderDB, type StoredSession } from './schema';
import { loadSession } from './session';

beforeEach(() => {
	globalThis.indexedDB = new IDBFactory();
	resetReaderDbForTests();
});

const session: StoredSession = {
	apiUrl: '/tt-rss/api/',
	user: 'reader',
	sessionId: 'sid-1',
	apiLevel: 15,
	stayingSignedIn: false,
	singleUser: false,
	signedInAt: 1
};

describe('migrations', () => {
	it('v1 → v2 keeps the session and settings and adds the cache and outbox stores', async () => {
		// A database as version 1 shipped it.
		const v1 = await openDB<ReaderDB>(DB_NAME, 1, {
			upgrade(db, oldVersion, _n, tx) {
				for (let v = oldVersion; v < 1; v++) migrations[v]?.(db, tx);
			}
		});
		await v1.put('session', session, 'current');
		await v1.put('settings', 'dark', 'theme');
		v1.close();

		const db = await openReaderDb();
		expect(db.version).toBe(2);
		expect([...db.objectStoreNames].sort()).toEqual(
			['articles', 'failed', 'lists', 'outbox', 'session', 'settings', 'tree'].sort()
		);
		expect(await loadSession()).toEqual(session);
		expect(await db.get('settings', 'theme')).toBe('dark');
		expect([...db.transaction('outbox').store.indexNames].sort()).toEqual(['byArticle', 'byKey']);
	});
});
