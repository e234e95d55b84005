import type { IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import { accountOf } from './account';
import { CACHE_OWNER } from './keys';
import { writeIn } from './stored-key';
import type { ReaderDB } from './schema';

type UpgradeTx = IDBPTransaction<ReaderDB, StoreNames<ReaderDB>[], 'versionchange'>;
type Migration = (db: IDBPDatabase<ReaderDB>, tx: UpgradeTx) => void;

/**
 * Ordered list: migration i takes the database from version i to i + 1. Never edit a shipped
 * entry; append a new one (readers keep their outbox across upgrades).
 */
export const migrations: Migration[] = [
	(db) => {
		db.createObjectStore('settings');
		db.createObjectStore('session');
	},
	// v2: the offline cache and the outbox. Only new stores: the session and settings stay.
	(db) => {
		db.createObjectStore('tree');
		db.createObjectStore('lists', { keyPath: 'key' });
		const articles = db.createObjectStore('articles', { keyPath: 'id' });
		articles.createIndex('byStoredAt', 'storedAt');
		articles.createIndex('byFeed', 'feedId');
		const outbox = db.createObjectStore('outbox', { keyPath: 'seq', autoIncrement: true });
		outbox.createIndex('byKey', 'key');
		outbox.createIndex('byArticle', 'articleId');
		db.createObjectStore('failed', { keyPath: 'id', autoIncrement: true });
	},
	// v3: changes and the cache belong to an account. Before v3 a device only ever held the
	// account of the stored session, so that is whose they are.
	(_db, tx) => {
		// A failed request aborts the upgrade by itself (the next open tries again); anything else
		// leaves items unstamped, which no account's session ever sends (the next sign-in lists them).
		stampWithStoredAccount(tx).catch(() => undefined);
	},
	// v4: stores for the offline search index, the sync engine and the media player. Like every
	// store not listed in db/device.ts NOT_CACHE, they belong to the cache's account and are
	// emptied with it (sign-out, another account's sign-in).
	(db) => {
		db.createObjectStore('search');
		db.createObjectStore('sync');
		db.createObjectStore('media');
	},
	// v5: articles by their date, so Today (since the local midnight) reads only its own, not the
	// whole cache with every body, at each counter refresh.
	(_db, tx) => {
		tx.objectStore('articles').createIndex('byUpdated', 'updated');
	}
];

async function stampWithStoredAccount(tx: UpgradeTx): Promise<void> {
	const stored = await tx.objectStore('session').get('current');
	if (!stored) return;
	const account = accountOf(stored);
	for (const name of ['outbox', 'failed'] as const) {
		let cursor = await tx.objectStore(name).openCursor();
		while (cursor) {
			if (cursor.value.account === undefined) await cursor.update({ ...cursor.value, account });
			cursor = await cursor.continue();
		}
	}
	await writeIn(tx.objectStore('settings'), CACHE_OWNER, account);
}
