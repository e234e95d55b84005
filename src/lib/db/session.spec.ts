import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import { resetReaderDbForTests, openReaderDb } from './open';
import { loadSession, saveSession, wipeAll } from './session';
import type { StoredSession } from './schema';

const base: StoredSession = {
	apiUrl: '/tt-rss/api/',
	user: 'reader',
	sessionId: 'sid-1',
	apiLevel: 15,
	password: 'secret',
	stayingSignedIn: false,
	singleUser: false,
	signedInAt: 1
};

beforeEach(() => {
	globalThis.indexedDB = new IDBFactory();
	resetReaderDbForTests();
});

describe('session store', () => {
	it('drops the password unless the reader chose to stay signed in', async () => {
		await saveSession(base);
		const stored = await loadSession();
		expect(stored?.sessionId).toBe('sid-1');
		expect(stored).not.toHaveProperty('password');
	});

	it('keeps the password with "stay signed in"', async () => {
		await saveSession({ ...base, stayingSignedIn: true });
		expect((await loadSession())?.password).toBe('secret');
	});

	it('wipes every store on sign-out', async () => {
		await saveSession({ ...base, stayingSignedIn: true });
		const db = await openReaderDb();
		await db.put('settings', 'dark', 'theme');
		await wipeAll();
		expect(await loadSession()).toBeUndefined();
		expect(await db.get('settings', 'theme')).toBeUndefined();
	});
});
