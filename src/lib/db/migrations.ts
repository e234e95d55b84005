import type { IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import type { ReaderDB } from './schema';

type Migration = (
	db: IDBPDatabase<ReaderDB>,
	tx: IDBPTransaction<ReaderDB, StoreNames<ReaderDB>[], 'versionchange'>
) => void;

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
	}
];
