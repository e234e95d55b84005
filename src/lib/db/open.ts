import { openDB, type IDBPDatabase } from 'idb';
import { DB_NAME, type ReaderDB } from './schema';
import { migrations } from './migrations';
import { markOnce } from '$lib/perf/marks';

export type ReaderDatabase = IDBPDatabase<ReaderDB>;

let opening: Promise<ReaderDatabase> | undefined;

/**
 * Opens (and migrates) the database once per page or worker. A failed open (blocked upgrade,
 * storage briefly unavailable, a newer version elsewhere) is forgotten, so the next call tries
 * again instead of failing for the rest of the page's or worker's life.
 */
export function openReaderDb(): Promise<ReaderDatabase> {
	if (opening) return opening;
	const attempt = openDB<ReaderDB>(DB_NAME, migrations.length, {
		upgrade(db, oldVersion, _newVersion, tx) {
			for (let version = oldVersion; version < migrations.length; version++) {
				migrations[version]?.(db, tx);
			}
		},
		blocking() {
			// A newer tab wants to upgrade: let it, this connection reopens on next use.
			void attempt.then((db) => db.close());
			if (opening === attempt) opening = undefined;
		}
	}).then(
		(db) => {
			markOnce('db:open');
			return db;
		},
		(error: unknown) => {
			if (opening === attempt) opening = undefined;
			throw error;
		}
	);
	opening = attempt;
	return attempt;
}

/** For tests: forget the cached connection. */
export function resetReaderDbForTests(): void {
	opening = undefined;
}
