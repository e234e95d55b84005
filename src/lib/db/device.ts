/**
 * What this device keeps for which account. The cache (articles, lists, tree, images) belongs to
 * one account at a time, named in `settings` (`cache.owner`): a sign-in as another account empties
 * it in the same transaction that stores the new session, so nothing of the earlier account is
 * ever shown to the next. Queued and failed changes carry their own account and stay until their
 * account sends them or the reader discards them.
 */
import { clearJournalEntries } from './journal-db';
import type { StoreNames } from 'idb';
import { accountOf, belongsTo } from './account';
import { CACHE_OWNER } from './keys';
import { getStored, readIn, writeIn } from './kv';
import {
	IMAGE_CACHE,
	MEDIA_CACHE,
	MEDIA_FAILURES_CACHE,
	REPLAY_LOCK,
	REPLAY_STATUS_KEY,
	SENT_LOG_KEY,
	SNAPSHOT_CACHE,
	SYNC_LOCK
} from './names';
import { openReaderDb, type ReaderDatabase } from './open';
import type { FailedItem, OutboxItem, ReaderDB, SessionRecord, StoredSession } from './schema';
import { sessionRecord } from './session';

type Store = StoreNames<ReaderDB>;

/**
 * Stores that are not the cache. Every other store, including one a later version adds, is
 * treated as one account's cache: a new store is then private by default.
 */
const NOT_CACHE = new Set<Store>(['session', 'settings', 'outbox', 'failed']);

function cacheStores(db: ReaderDatabase): Store[] {
	return [...db.objectStoreNames].filter((name) => !NOT_CACHE.has(name));
}

/**
 * Drops what the account left in Cache Storage (shared by page and worker): the article images and
 * pack enclosures kept for offline reading and the start snapshot of its last screen.
 */
export async function forgetAccountCaches(): Promise<void> {
	if (typeof caches === 'undefined') return;
	await Promise.all([
		caches.delete(IMAGE_CACHE),
		caches.delete(MEDIA_CACHE),
		caches.delete(MEDIA_FAILURES_CACHE),
		// As boot/snapshot-contract.ts `forgetSnapshot`: no Cache Storage, nothing was kept there.
		caches.delete(SNAPSHOT_CACHE).catch(() => false)
	]);
}

/**
 * Whether the cache is (still) `account`'s: asked before each Cache Storage write of the account's
 * images and enclosures, whoever fetched them (the worker shows no account), so a fetch that
 * outlives a sign-out or a switch stores nothing.
 */
export async function cacheOwnedBy(account: string | undefined): Promise<boolean> {
	if (account === undefined) return false;
	try {
		const db = await openReaderDb();
		return (await getStored(CACHE_OWNER, db)) === account;
	} catch {
		return false;
	}
}

/**
 * Stores a new session. When it is another account's than the cache's owner, the cache is
 * emptied first, in the same transaction, and the images after it. Returns whether the account
 * changed (the caller then forgets what it holds in memory too).
 */
export async function storeSessionFor(session: StoredSession): Promise<boolean> {
	const db = await openReaderDb();
	const record = await sessionRecord(db, session);
	const account = accountOf(session);
	const stores = cacheStores(db);
	const tx = db.transaction(['session', 'settings', ...stores], 'readwrite');
	const settings = tx.objectStore('settings');
	const switched = (await readIn(settings, CACHE_OWNER)) !== account;
	if (switched) {
		for (const name of stores) await tx.objectStore(name).clear();
		// The replay's last outcome (outbox/status.ts) speaks of the earlier account's session.
		await settings.delete(REPLAY_STATUS_KEY);
		// So does the log of changes it had sent lately (outbox/sent-log.ts).
		await settings.delete(SENT_LOG_KEY);
		await writeIn(settings, CACHE_OWNER, account);
	}
	await tx.objectStore('session').put(record, 'current');
	await tx.done;
	if (switched) await forgetAccountCaches();
	return switched;
}

export interface Changes {
	pending: OutboxItem[];
	failed: FailedItem[];
}

/** Queued and failed changes, this account's and the others', read together in one transaction. */
export async function changesByAccount(
	account: string
): Promise<{ mine: Changes; others: Changes }> {
	const db = await openReaderDb();
	const tx = db.transaction(['outbox', 'failed'], 'readonly');
	const [pending, failed] = await Promise.all([
		tx.objectStore('outbox').getAll(),
		tx.objectStore('failed').getAll()
	]);
	await tx.done;
	const mine = (item: { account?: string }): boolean => belongsTo(item, account);
	return {
		mine: { pending: pending.filter(mine), failed: failed.filter(mine) },
		others: {
			pending: pending.filter((item) => !mine(item)),
			failed: failed.filter((item) => !mine(item))
		}
	};
}

async function deleteChanges(
	db: ReaderDatabase,
	keep: (item: { account?: string }) => boolean,
	extraStores: Store[] = []
): Promise<void> {
	const tx = db.transaction(['outbox', 'failed', ...extraStores], 'readwrite');
	for (const name of ['outbox', 'failed'] as const) {
		let cursor = await tx.objectStore(name).openCursor();
		while (cursor) {
			if (!keep(cursor.value)) await cursor.delete();
			cursor = await cursor.continue();
		}
	}
	for (const name of extraStores) await tx.objectStore(name).clear();
	await tx.done;
}

/** The reader chose to discard them, after seeing the list: every change that is not this account's. */
export async function discardChangesNotOf(account: string): Promise<void> {
	const db = await openReaderDb();
	await deleteChanges(db, (item) => belongsTo(item, account));
}

/**
 * Sign-out: everything of this account on this device — its changes, the cache, the session (the
 * password with it), the sealing key, the images. Other accounts' changes that the reader chose to
 * keep at an earlier sign-in stay (they are never sent but by their own account).
 */
export async function wipeAccount(account: string): Promise<void> {
	const db = await openReaderDb();
	const everythingElse = [...db.objectStoreNames].filter(
		(name) => name !== 'outbox' && name !== 'failed'
	);
	await deleteChanges(
		db,
		(item) => item.account !== undefined && !belongsTo(item, account),
		everythingElse
	);
	// The write-ahead journal's durable copy (local storage, its other copy, the sign-out clears).
	await clearJournalEntries();
	await forgetAccountCaches();
}

/**
 * A sign-out's first step: the kept session (its password with it) and the cache's owner go, in
 * one transaction. From then on no tab or worker logs in or sends with that sign-in (outbox/
 * session-client.ts) and no write of a fetched record lands in the cache (`mayWriteCache` needs
 * an owner). Returns the record removed: the worker may have stored a newer session id in it.
 */
export async function endSignIn(): Promise<SessionRecord | undefined> {
	const db = await openReaderDb();
	const tx = db.transaction(['session', 'settings'], 'readwrite');
	const kept = await tx.objectStore('session').get('current');
	await tx.objectStore('session').delete('current');
	await tx.objectStore('settings').delete(CACHE_OWNER.name);
	await tx.done;
	return kept;
}

/** How long a sign-out waits for a running replay or sync to stop before it wipes anyway. */
export const STOP_WAIT_MS = 10_000;

/**
 * Runs `work` holding the outbox replay's and the sync's Web Locks (across tabs and the worker):
 * a replay or sync running now ends first — with its sign-in over, its next request is refused.
 * One that has not ended within `waitMs` is not waited for: it can send and write nothing more.
 */
export async function withReplayAndSyncStopped<T>(
	work: () => Promise<T>,
	waitMs = STOP_WAIT_MS
): Promise<T> {
	const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
	if (!locks?.request) return work();
	const signal = AbortSignal.timeout(waitMs);
	let started = false;
	const run = (): Promise<T> => {
		started = true;
		return work();
	};
	try {
		return await locks.request(REPLAY_LOCK, { signal }, () =>
			locks.request(SYNC_LOCK, { signal }, run)
		);
	} catch (error) {
		if (started) throw error;
		return run();
	}
}
