/**
 * Storage limits: quota errors, eviction of the read cache (never the outbox), the storage
 * estimate and the persistent-storage request. Framework-free: the page and the worker use it.
 */
import type { ReaderDatabase } from '$lib/db/open';
import { unindexArticles } from '$lib/search';

export const IMAGE_CACHE = 'images-v1';

export class StorageFullError extends Error {
	readonly userMessage =
		'This device has no room left for offline articles. Older cached articles were removed; free some space or lower the number of offline articles in the settings. Your changes are still kept.';
	constructor(cause?: unknown) {
		super('Storage full', cause !== undefined ? { cause } : undefined);
		this.name = 'StorageFullError';
	}
}

export function isQuotaError(error: unknown): boolean {
	if (error instanceof StorageFullError) return true;
	if (typeof error !== 'object' || error === null) return false;
	const name = (error as { name?: unknown }).name;
	const inner = (error as { inner?: unknown; cause?: unknown }).cause;
	return (
		name === 'QuotaExceededError' ||
		name === 'NS_ERROR_DOM_QUOTA_REACHED' ||
		(inner !== undefined && inner !== error && isQuotaError(inner))
	);
}

type Listener = (message: string | undefined) => void;
const listeners = new Set<Listener>();

/** The page's status listens here to show "storage full" (undefined clears it). */
export function onStorageProblem(listener: Listener): () => void {
	listeners.add(listener);
	return () => listeners.delete(listener);
}

export function reportStorageProblem(message: string | undefined): void {
	for (const listener of listeners) listener(message);
}

/**
 * Frees room by dropping the oldest share of the read cache: cached articles (oldest stored
 * first), every cached list (they would point at dropped articles) and the oldest images.
 * The outbox and the failed list are never touched: they hold the reader's own changes.
 */
export async function evictCache(db: ReaderDatabase, share = 0.25): Promise<number> {
	const tx = db.transaction(['articles', 'lists'], 'readwrite');
	const articles = tx.objectStore('articles');
	const total = await articles.count();
	let toDrop = Math.max(1, Math.ceil(total * share));
	const dropped: number[] = [];
	let cursor = await articles.index('byStoredAt').openCursor();
	while (cursor && toDrop > 0) {
		dropped.push(cursor.primaryKey);
		await cursor.delete();
		toDrop--;
		cursor = await cursor.continue();
	}
	await tx.objectStore('lists').clear();
	await tx.done;
	unindexArticles(dropped);
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

export interface StorageEstimateInfo {
	usage: number | undefined;
	quota: number | undefined;
	persisted: boolean | undefined;
}

export async function storageEstimate(): Promise<StorageEstimateInfo> {
	const storage = typeof navigator !== 'undefined' ? navigator.storage : undefined;
	if (!storage?.estimate) return { usage: undefined, quota: undefined, persisted: undefined };
	const [estimate, persisted] = await Promise.all([
		storage.estimate(),
		storage.persisted ? storage.persisted() : Promise.resolve(undefined)
	]);
	return { usage: estimate.usage, quota: estimate.quota, persisted };
}

/** Asks the browser not to evict our data under pressure (the outbox especially). */
export async function requestPersistentStorage(): Promise<boolean> {
	// persist() is a window-only method (absent from the worker's types).
	const storage =
		typeof navigator !== 'undefined'
			? (navigator.storage as StorageManager & { persist?: () => Promise<boolean> })
			: undefined;
	if (!storage?.persist) return false;
	try {
		if (await storage.persisted()) return true;
		return await storage.persist();
	} catch {
		return false;
	}
}

export function formatBytes(bytes: number | undefined): string {
	if (bytes === undefined) return 'unknown';
	if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
	if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
	return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}
