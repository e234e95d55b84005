/**
 * The cache's writes (cache/write.ts) for the page's states: loaded with the first server answer
 * they store, not with the first screen, which only reads the cache.
 */
import { lazyModule } from '$lib/perf/lazy';

const writes = lazyModule(() => import('$lib/cache/write'));

export const storeList = writes.soon('storeList');

export const storeTree = writes.soon('storeTree');

export const storeArticles = writes.soon('storeArticles');
