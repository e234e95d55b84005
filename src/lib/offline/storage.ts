/**
 * Storage limits for the features: the storage estimate and the persistent-storage request, and
 * (from db/quota.ts, where the cache and the outbox take them) quota errors and the eviction of
 * the read cache. Framework-free: the page and the worker use it.
 */
export {
	dropArticles,
	dropCached,
	dropImages,
	evictCache,
	evictionOrder,
	isEvictedFirst,
	onStorageProblem,
	protectedArticleIds,
	StorageFullError
} from '$lib/db/quota';

/** The Cache Storage names: db/names.ts, where the database layer reads them to wipe an account. */
export { IMAGE_CACHE, MEDIA_CACHE, MEDIA_FAILURES_CACHE } from '$lib/db/names';

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
