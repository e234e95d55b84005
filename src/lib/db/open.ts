import { openDB, type IDBPDatabase } from 'idb';
import { DB_NAME, type ReaderDB } from './schema';
import { migrations } from './migrations';
import { markOnce } from '$lib/perf/marks';

export type ReaderDatabase = IDBPDatabase<ReaderDB>;

let opening: Promise<ReaderDatabase> | undefined;

/** Opens (and migrates) the database once per page or worker. */
export function openReaderDb(): Promise<ReaderDatabase> {
	opening ??= openDB<ReaderDB>(DB_NAME, migrations.length, {
		upgrade(db, oldVersion, _newVersion, tx) {
			for (let version = oldVersion; version < migrations.length; version++) {
				migrations[version]?.(db, tx);
			}
		},
		blocking() {
			// A newer tab wants to upgrade: let it, this connection reopens on next use.
			void opening?.then((db) => db.close());
			opening = undefined;
		}
	}).then((db) => {
		markOnce('db:open');
		return db;
	});
	return opening;
}

/** For tests: forget the cached connection. */
export function resetReaderDbForTests(): void {
	opening = undefined;
}
