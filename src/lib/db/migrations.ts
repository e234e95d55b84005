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
	}
];
