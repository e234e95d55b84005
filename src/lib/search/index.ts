/**
 * The offline search's change queue, as the search's own code and its specs name it: it lives in
 * db/index-queue.ts, below the cache and the eviction that feed it. See docs/offline-search.md.
 */
export { indexArticles, setIndexSink, unindexArticles, type IndexSink } from '$lib/db/index-queue';
