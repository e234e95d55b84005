/**
 * A full device as the page hears of it: the quota error's test, the error a write throws after
 * freeing room did not help, and the one channel to the page's status ("storage full"). Apart from
 * the eviction (quota.ts) so that the first screen, which only listens, does not carry the eviction
 * and its retry (docs/i18n.md, first-screen JavaScript). Framework-free: the page and the worker use it.
 */
import { ReaderError } from '$lib/api';
import { m } from '$lib/i18n/m';

export class StorageFullError extends ReaderError {
	/**
	 * `message`: what the reader is told, by default that cached articles were dropped and their
	 * changes are kept (error_storage_full); a change that itself could not be stored says so.
	 */
	constructor(cause?: unknown, message = m.error_storage_full()) {
		// In the reader's language: the page's first words and the worker's have it (error_storage_full).
		super(message, 'Storage full', cause !== undefined ? { cause } : undefined);
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
