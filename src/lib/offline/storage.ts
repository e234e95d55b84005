/**
 * Storage limits for the features: the storage estimate and the persistent-storage request, and
 * (from db/storage-problem.ts, where the cache and the outbox take them) quota errors. The eviction
 * of the read cache is db/quota.ts's, imported from there by the budget and the media cache: a
 * re-export here would put it on the first screen, whose status listens here.
 * Framework-free: the page and the worker use it.
 */
import { formatLocale, m } from '$lib/i18n/m';

export { onStorageProblem, StorageFullError } from '$lib/db/storage-problem';

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

/** "12.3 MB", "12,3 Mo", "12,3 МБ": in the app's language (i18n `formatLocale`). */
export function formatBytes(bytes: number | undefined): string {
	if (bytes === undefined) return m.settings_storage_unknown();
	const [value, unit, digits] =
		bytes < 1024 * 1024
			? [Math.round(bytes / 1024), 'kilobyte', 0]
			: bytes < 1024 ** 3
				? [bytes / 1024 ** 2, 'megabyte', 1]
				: [bytes / 1024 ** 3, 'gigabyte', 2];
	return new Intl.NumberFormat(formatLocale(), {
		style: 'unit',
		unit,
		minimumFractionDigits: digits,
		maximumFractionDigits: digits
	}).format(value);
}
