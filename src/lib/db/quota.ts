/**
 * A full device: quota errors, the one eviction order of the read cache (never what the outbox or
 * the failed list names), and the retry after freeing room that every IndexedDB write of the cache
 * and the outbox goes through. Below the stored data (cache/, outbox/) so that they can use it
 * without importing a feature: the eviction reaches the offline search only through its change
 * queue (index-queue.ts). Framework-free: the page and the worker use it.
 */
import type { IDBPTransaction, StoreNames } from 'idb';
import { unindexArticles } from './index-queue';
import { IMAGE_CACHE } from './names';
import { openReaderDb, type ReaderDatabase } from './open';
import type { FailedItem, OutboxItem, ReaderDB, StoredArticle } from './schema';
import { isQuotaError, reportStorageProblem, StorageFullError } from './storage-problem';
import { storeHandles, type StoreName, type Stores } from './stores';
import { writeTx } from './tx';

/**
 * Article ids a queued or refused change names: never evicted, whatever the budget, so the
 * pending and failed lists can still show what they change and the cache keeps the reader's
 * version. Catch-ups name the rows the reader had loaded for a search (`seenIds`).
 */
export async function protectedArticleIds(db?: ReaderDatabase): Promise<Set<number>> {
	const tx = (db ?? (await openReaderDb())).transaction(['outbox', 'failed'], 'readonly');
	const [queued, failed] = await Promise.all([
		tx.objectStore('outbox').getAll(),
		tx.objectStore('failed').getAll()
	]);
	await tx.done;
	return namedArticleIds([...queued, ...failed]);
}

function namedArticleIds(items: readonly (OutboxItem | FailedItem)[]): Set<number> {
	const ids = new Set<number>();
	for (const item of items) {
		if (item.articleId !== undefined) ids.add(item.articleId);
		for (const id of intentArticleIds(item.intent)) ids.add(id);
	}
	return ids;
}

function intentArticleIds(intent: OutboxItem['intent']): readonly number[] {
	switch (intent.type) {
		case 'flag':
		case 'label':
			return intent.articleIds;
		case 'note':
			return [intent.articleId];
		case 'catchup':
			return intent.seenIds ?? [];
		case 'share':
		case 'setting':
			return [];
	}
}

export interface EvictionOrder {
	/** Read, not starred or published, in no pack: oldest stored first. */
	readFirst: StoredArticle[];
	/** Unread, starred, published or in a pack: only when the read ones were not enough. */
	thenOthers: StoredArticle[];
	/** Named by the outbox or the failed list: never dropped. */
	kept: StoredArticle[];
}

/** The one eviction order, for the budget (budget.ts) and for a full quota (evictCache). */
export function evictionOrder(
	articles: readonly StoredArticle[],
	outboxIds: ReadonlySet<number>
): EvictionOrder {
	const order: EvictionOrder = { readFirst: [], thenOthers: [], kept: [] };
	const byAge = [...articles].sort((a, b) => a.storedAt - b.storedAt || a.id - b.id);
	for (const article of byAge) {
		if (outboxIds.has(article.id)) order.kept.push(article);
		else if (isEvictedFirst(article)) order.readFirst.push(article);
		else order.thenOthers.push(article);
	}
	return order;
}

/** Read and not starred, published or in a pack: what the reader misses least. */
export function isEvictedFirst(article: StoredArticle): boolean {
	return (
		!article.unread &&
		!article.marked &&
		!article.published &&
		(article.packs === undefined || article.packs.length === 0)
	);
}

/**
 * Drops these articles and takes their ids out of the cached lists (a list that lost rows is
 * marked incomplete, so it asks the server again rather than claiming it shows everything).
 * Ids an outbox or failed item names are skipped, checked in the same transaction. Returns the
 * ids dropped.
 */
export async function dropArticles(
	db: ReaderDatabase | undefined,
	ids: readonly number[]
): Promise<number[]> {
	if (ids.length === 0) return [];
	const tx = (db ?? (await openReaderDb())).transaction(
		['articles', 'lists', 'outbox', 'failed'],
		'readwrite'
	);
	const [queued, failed] = await Promise.all([
		tx.objectStore('outbox').getAll(),
		tx.objectStore('failed').getAll()
	]);
	const named = namedArticleIds([...queued, ...failed]);
	const dropped = ids.filter((id) => !named.has(id));
	const gone = new Set(dropped);
	const articles = tx.objectStore('articles');
	for (const id of dropped) await articles.delete(id);
	const lists = tx.objectStore('lists');
	let cursor = await lists.openCursor();
	while (cursor) {
		const list = cursor.value;
		const ids = list.ids.filter((id) => !gone.has(id));
		if (ids.length !== list.ids.length) await cursor.update({ ...list, ids, complete: false });
		cursor = await cursor.continue();
	}
	await tx.done;
	unindexArticles(dropped);
	return dropped;
}

/**
 * Frees room after a full quota by dropping a share of the cached articles in the eviction order
 * (read ones first, oldest first; never what the outbox names), their ids from the lists, and the
 * same share of the oldest images. The outbox and the failed list are never touched.
 */
export async function evictCache(db: ReaderDatabase, share = 0.25): Promise<number> {
	const [articles, outboxIds] = await Promise.all([db.getAll('articles'), protectedArticleIds(db)]);
	const order = evictionOrder(articles, outboxIds);
	const toDrop = Math.max(1, Math.ceil(articles.length * share));
	const ids = [...order.readFirst, ...order.thenOthers].slice(0, toDrop).map((a) => a.id);
	const dropped = await dropArticles(db, ids);
	await evictImages(share);
	return dropped.length;
}

/** Drops the oldest share of the image cache (Cache Storage keeps insertion order). */
export async function evictImages(share: number): Promise<void> {
	if (typeof caches === 'undefined') return;
	try {
		const cache = await caches.open(IMAGE_CACHE);
		const keys = await cache.keys();
		const drop = Math.ceil(keys.length * share);
		await Promise.all(keys.slice(0, drop).map((k) => cache.delete(k)));
	} catch {
		// Cache Storage can be unavailable (private mode): nothing to free there.
	}
}

/** Drops these images from the image cache; returns how many were there. */
export function dropImages(urls: readonly string[]): Promise<number> {
	return dropCached(IMAGE_CACHE, urls);
}

/** Drops these URLs from one Cache Storage cache; returns how many were there. */
export async function dropCached(cacheName: string, urls: readonly string[]): Promise<number> {
	if (urls.length === 0 || typeof caches === 'undefined') return 0;
	try {
		const cache = await caches.open(cacheName);
		const results = await Promise.all(urls.map((url) => cache.delete(url)));
		return results.filter(Boolean).length;
	} catch {
		return 0;
	}
}

/**
 * Runs a cache write; on a full quota frees room once and tries again. A second failure is a
 * StorageFullError with a message for the reader.
 */
export async function withQuotaRetry<T>(db: ReaderDatabase, write: () => Promise<T>): Promise<T> {
	try {
		return await write();
	} catch (error) {
		if (!isQuotaError(error)) throw error;
		await evictCache(db).catch(() => 0);
		try {
			const result = await write();
			reportStorageProblem(undefined);
			return result;
		} catch (again) {
			if (!isQuotaError(again)) throw again;
			const full = new StorageFullError(again);
			reportStorageProblem(full.userMessage);
			throw full;
		}
	}
}

/**
 * `writeTx` (tx.ts) through the full-quota retry (`withQuotaRetry`): on a full quota the cache
 * frees room once and `write` runs again in a new transaction (so it must not keep state from the
 * aborted try outside its result); a second failure is a StorageFullError. The write of every cache
 * and outbox record that may grow the database.
 */
export function writeTxWithRoom<const S extends StoreNames<ReaderDB>[], T>(
	db: ReaderDatabase,
	stores: S,
	write: (tx: IDBPTransaction<ReaderDB, S, 'readwrite'>) => Promise<T>
): Promise<T> {
	return withQuotaRetry(db, () => writeTx(db, stores, write));
}

/**
 * db/stores.ts `writeStores` for a write that may grow the database: on a full quota the cache
 * frees room once and `write` runs again in a new transaction (`writeTxWithRoom`). The door's verb
 * for the cache's and the outbox's writes; here, with the eviction, off the first screen.
 */
export async function writeStoresWithRoom<const S extends StoreName[], T>(
	names: S,
	write: (stores: Stores<S, 'readwrite'>) => Promise<T>,
	db?: ReaderDatabase
): Promise<T> {
	return writeTxWithRoom(db ?? (await openReaderDb()), names, (tx) =>
		write(storeHandles(tx, names))
	);
}
