/**
 * The page's side of the offline search: loads the index code (indexer.ts) by dynamic import,
 * only when the reader searches the device or the cache hands over changes to index, so it is
 * never part of the first screen's JavaScript. Importing this module connects the cache's hooks
 * (db/index-queue.ts) to the index; the service worker never imports it.
 */
import { setIndexSink } from '$lib/db/index-queue';
import type { LocalResults, LocalSearchOptions } from './indexer';

export type { LocalResults, LocalSearchOptions } from './indexer';

function loadIndexer(): Promise<typeof import('./indexer')> {
	return import('./indexer');
}

setIndexSink((added, removed) => {
	void loadIndexer()
		.then((indexer) => indexer.applyChanges(added, removed))
		.catch(() => {
			// The index is a convenience: the next search mends it from the articles store.
		});
});

/** Searches the articles cached on this device (loads the index on first use). */
export async function searchOnDevice(options: LocalSearchOptions): Promise<LocalResults> {
	const indexer = await loadIndexer();
	return indexer.searchLocal(options);
}
