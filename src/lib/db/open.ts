import { openDB, unwrap, type IDBPDatabase } from 'idb';
import { DB_NAME, type ReaderDB } from './schema';
import { migrations } from './migrations';
import { markOnce } from '$lib/perf/marks';

export type ReaderDatabase = IDBPDatabase<ReaderDB>;

/**
 * One connection per page or worker, opened on first use by `open` (which hands `blocking` to
 * idb's `openDB`): a connection a newer version elsewhere wants closed is closed and forgotten
 * (it reopens on next use), a failed open (blocked upgrade, storage briefly unavailable) is
 * forgotten so the next call tries again instead of failing for the rest of the page's life, and
 * its transactions are tracked (`trackTransactions`, below). The reader's database and the
 * write-ahead journal's (journal-db.ts) open this way.
 */
export function connectionOnce<S>(
	open: (blocking: () => void) => Promise<IDBPDatabase<S>>,
	onOpen?: () => void
): { get(): Promise<IDBPDatabase<S>>; reset(): void } {
	let opening: Promise<IDBPDatabase<S>> | undefined;
	return {
		get() {
			if (opening) return opening;
			const attempt: Promise<IDBPDatabase<S>> = open(() => {
				// A newer tab wants to upgrade: let it, this connection reopens on next use.
				void attempt.then((db) => db.close());
				if (opening === attempt) opening = undefined;
			}).then(
				(db) => {
					onOpen?.();
					trackTransactions(unwrap(db));
					return db;
				},
				(error: unknown) => {
					if (opening === attempt) opening = undefined;
					throw error;
				}
			);
			opening = attempt;
			return attempt;
		},
		reset() {
			opening = undefined;
		}
	};
}

const reader = connectionOnce<ReaderDB>(
	(blocking) =>
		openDB<ReaderDB>(DB_NAME, migrations.length, {
			upgrade(db, oldVersion, _newVersion, tx) {
				for (let version = oldVersion; version < migrations.length; version++) {
					migrations[version]?.(db, tx);
				}
			},
			blocking
		}),
	() => markOnce('db:open')
);

/** Opens (and migrates) the reader's database once per page or worker (`connectionOnce`). */
export function openReaderDb(): Promise<ReaderDatabase> {
	return reader.get();
}

/**
 * WebKit (Safari, every iPhone browser; WebKitGTK here) keeps a page it leaves for another address
 * in its back/forward cache with its IndexedDB transactions frozen mid-way: a write transaction
 * waiting for the page's next request then holds its stores for good, and every later transaction
 * on the database — the next page's start included, in any tab — waits forever (until the browser
 * restarts). Reproduced in WebKitGTK 2.4x with one write transaction in flight at the page change;
 * aborting it on `pagehide` avoids it (docs/engines.md, "IndexedDB writes across a page change").
 * So this page's transactions are tracked, and those still running when the page goes into that
 * cache are aborted: the sync and the cache write again next time; a change the reader made in
 * that instant was not saved yet and says so if the page comes back. A plain unload (reload,
 * close) is left alone: every engine finishes or aborts those itself.
 */
const live = new Set<IDBTransaction>();
/**
 * From `pagehide` into that cache until `pageshow`: a transaction begun then (a later `pagehide`
 * listener's write, its promise's next step — the Undo offer committed as the page goes: chaos
 * seed 4700007) would be frozen the same way, so it is aborted as it begins; its caller sees the
 * write fail, as a write into a full disk.
 */
let frozen = false;

/** Tracks a connection's transactions (`connectionOnce`'s). */
function trackTransactions(native: IDBDatabase): void {
	const begin = native.transaction.bind(native);
	native.transaction = ((...args: Parameters<IDBDatabase['transaction']>) => {
		const tx = begin(...args);
		if (frozen) {
			// After the caller's first requests (its promises then see the abort), before any task.
			queueMicrotask(() => {
				try {
					tx.abort();
				} catch {
					// Finished already.
				}
			});
			return tx;
		}
		live.add(tx);
		const done = (): void => void live.delete(tx);
		tx.addEventListener('complete', done);
		tx.addEventListener('abort', done);
		return tx;
	}) as IDBDatabase['transaction'];
}

/** Aborts this page's unfinished transactions; returns how many. */
export function abortLiveTransactions(): number {
	let aborted = 0;
	for (const tx of live) {
		try {
			tx.abort();
			aborted++;
		} catch {
			// Finished in the meantime.
		}
	}
	live.clear();
	return aborted;
}

// Pages only (this module also runs in the service worker, which has no pagehide).
const page = globalThis as unknown as {
	document?: unknown;
	addEventListener?: (
		type: 'pagehide' | 'pageshow',
		listener: (event: { persisted: boolean }) => void
	) => void;
};
if (page.document !== undefined && page.addEventListener) {
	page.addEventListener('pagehide', (event) => pageHidden(event.persisted));
	page.addEventListener('pageshow', pageShown);
}

/** `pagehide`: into the back/forward cache (`persisted`), the page's transactions are aborted. */
export function pageHidden(persisted: boolean): void {
	if (!persisted) return;
	frozen = true;
	abortLiveTransactions();
}

/** `pageshow`: the page is back (or new); its transactions run again. */
export function pageShown(): void {
	frozen = false;
}

/** For tests: forget the cached connection. */
export function resetReaderDbForTests(): void {
	reader.reset();
	live.clear();
	frozen = false;
}
