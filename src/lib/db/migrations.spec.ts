import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { accountOf } from './account';
import { migrations } from './migrations';
import { openReaderDb } from './open';
import { DB_NAME, type ReaderDB } from './schema';
import { loadSession } from './session';
import { storedSession } from '$support/factories';

const session = storedSession({ apiUrl: '/tt-rss/api/', sessionId: 'sid-1' });

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
		expect(db.version).toBe(migrations.length);
		expect([...db.objectStoreNames].sort()).toEqual(
			[
				'articles',
				'failed',
				'lists',
				'outbox',
				'session',
				'settings',
				'tree',
				'search',
				'sync',
				'media'
			].sort()
		);
		expect(await loadSession()).toEqual(session);
		expect(await db.get('settings', 'theme')).toBe('dark');
		expect([...db.transaction('outbox').store.indexNames].sort()).toEqual(['byArticle', 'byKey']);
	});

	it("v2 → v3 stamps queued and failed changes, and the cache, with the stored session's account", async () => {
		const v2 = await openDB<ReaderDB>(DB_NAME, 2, {
			upgrade(db, oldVersion, _n, tx) {
				for (let v = oldVersion; v < 2; v++) migrations[v]?.(db, tx);
			}
		});
		await v2.put('session', session, 'current');
		await v2.add('outbox', {
			key: 'flag:starred:1',
			intent: { type: 'flag', field: 'starred', articleIds: [1], value: true },
			articleId: 1,
			createdAt: 1,
			attempts: 0
		});
		await v2.add('failed', {
			key: 'note:2',
			intent: { type: 'note', articleId: 2, note: 'n' },
			articleId: 2,
			code: 'INCORRECT_USAGE',
			reason: 'refused',
			failedAt: 1,
			attempts: 1
		});
		v2.close();

		const db = await openReaderDb();
		const account = accountOf(session);
		expect((await db.getAll('outbox')).map((i) => i.account)).toEqual([account]);
		expect((await db.getAll('failed')).map((i) => i.account)).toEqual([account]);
		expect(await db.get('settings', 'cache.owner')).toBe(account);
	});

	it('v2 → v3 without a session leaves changes unstamped: no session ever sends them', async () => {
		const v2 = await openDB<ReaderDB>(DB_NAME, 2, {
			upgrade(db, oldVersion, _n, tx) {
				for (let v = oldVersion; v < 2; v++) migrations[v]?.(db, tx);
			}
		});
		await v2.add('outbox', {
			key: 'flag:starred:1',
			intent: { type: 'flag', field: 'starred', articleIds: [1], value: true },
			createdAt: 1,
			attempts: 0
		});
		v2.close();
		const db = await openReaderDb();
		expect((await db.getAll('outbox'))[0]).not.toHaveProperty('account');
		expect(await db.get('settings', 'cache.owner')).toBeUndefined();
	});

	it('v3 → v4 adds the search, sync and media stores; a sign-in as another account empties them', async () => {
		const v3 = await openDB<ReaderDB>(DB_NAME, 3, {
			upgrade(db, oldVersion, _n, tx) {
				for (let v = oldVersion; v < 3; v++) migrations[v]?.(db, tx);
			}
		});
		await v3.put('session', session, 'current');
		await v3.put('settings', accountOf(session), 'cache.owner');
		v3.close();
		const db = await openReaderDb();
		for (const name of ['search', 'sync', 'media'] as const) await db.put(name, 'kept', 'k');
		const { storeSessionFor } = await import('./device');
		await storeSessionFor({ ...session, user: 'second', sessionId: 'sid-2' });
		for (const name of ['search', 'sync', 'media'] as const) {
			expect(await db.get(name, 'k')).toBeUndefined();
		}
	});
});
