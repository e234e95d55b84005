import { openReaderDb } from './open';
import type { StoredSession } from './schema';

export async function loadSession(): Promise<StoredSession | undefined> {
	const db = await openReaderDb();
	return db.get('session', 'current');
}

export async function saveSession(session: StoredSession): Promise<void> {
	const db = await openReaderDb();
	// Never keep a password the reader did not ask us to keep.
	const { password, ...rest } = session;
	const record: StoredSession =
		session.stayingSignedIn && password !== undefined ? { ...rest, password } : rest;
	await db.put('session', record, 'current');
}

/** Sign-out: every store is emptied (cached articles are the reader's private data too). */
export async function wipeAll(): Promise<void> {
	const db = await openReaderDb();
	const names = [...db.objectStoreNames];
	const tx = db.transaction(names, 'readwrite');
	await Promise.all([...names.map((name) => tx.objectStore(name).clear()), tx.done]);
}
