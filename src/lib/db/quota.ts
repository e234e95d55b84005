/**
 * A full device: quota errors and the retry after freeing room (evict.ts, loaded when a write
 * first finds the quota full) that every IndexedDB write of the cache and the outbox goes
 * through. Below the stored data (cache/, outbox/) so that they can use it without importing a
 * feature. Framework-free: the page and the worker use it.
 */
import { ReaderError } from '$lib/api';
import type { ReaderDatabase } from './open';

export class StorageFullError extends ReaderError {
	constructor(cause?: unknown) {
		super(
			'This device has no room left for offline articles. Older cached articles were removed; free some space or lower the number of offline articles in the settings. Your changes are still kept.',
			'Storage full',
			cause !== undefined ? { cause } : undefined
		);
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
 * Runs a cache write; on a full quota frees room once and tries again. A second failure is a
 * StorageFullError with a message for the reader.
 */
export async function withQuotaRetry<T>(db: ReaderDatabase, write: () => Promise<T>): Promise<T> {
	try {
		return await write();
	} catch (error) {
		if (!isQuotaError(error)) throw error;
		await import('./evict').then(({ evictCache }) => evictCache(db)).catch(() => 0);
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
