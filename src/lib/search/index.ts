/**
 * The offline search's public face, imported by the cache and eviction: two hooks that keep the
 * local index current, and the search itself. It stays tiny on purpose: the index and its code
 * (indexer.ts) load lazily, by dynamic import, in idle time after a cache write or when the reader
 * searches, so the first screen never waits for them. See docs/offline-search.md.
 */
import type { StoredArticle } from '$lib/db/schema';
import type { LocalResults, LocalSearchOptions } from './indexer';

export type { LocalResults, LocalSearchOptions } from './indexer';

const added = new Map<number, StoredArticle>();
const removed = new Set<number>();
let scheduled = false;

/**
 * Only a page keeps the index: in the service worker a change is left for the page, which finds
 * it by comparing the index with the articles store (indexer.ts).
 */
const inPage = (): boolean => typeof document !== 'undefined';

function loadIndexer(): Promise<typeof import('./indexer')> {
	return import('./indexer');
}

function flushLater(): void {
	if (scheduled) return;
	scheduled = true;
	const flush = (): void => {
		scheduled = false;
		const articles = [...added.values()];
		const ids = [...removed];
		added.clear();
		removed.clear();
		void loadIndexer()
			.then((indexer) => indexer.applyChanges(articles, ids))
			.catch(() => {
				// The index is a convenience: the next search mends it from the articles store.
			});
	};
	if (typeof requestIdleCallback === 'function') requestIdleCallback(flush, { timeout: 2000 });
	else setTimeout(flush, 200);
}

/**
 * Articles just written to the cache (after their transaction committed): their words are
 * (re)indexed in idle time. Never throws and never delays the caller.
 */
export function indexArticles(articles: readonly StoredArticle[]): void {
	if (!inPage() || articles.length === 0) return;
	for (const article of articles) {
		added.set(article.id, article);
		removed.delete(article.id);
	}
	flushLater();
}

/** Article ids just dropped from the cache (eviction, clearing): they leave the index. */
export function unindexArticles(ids: readonly number[]): void {
	if (!inPage() || ids.length === 0) return;
	for (const id of ids) {
		removed.add(id);
		added.delete(id);
	}
	flushLater();
}

/** Searches the articles cached on this device (loads the index on first use). */
export async function searchOnDevice(options: LocalSearchOptions): Promise<LocalResults> {
	const indexer = await loadIndexer();
	return indexer.searchLocal(options);
}
