/**
 * The cache's writes (cache/write.ts) for the page's states: loaded with the first server answer
 * they store, not with the first screen, which only reads the cache.
 */
type Writes = typeof import('$lib/cache/write');

const writes = (): Promise<Writes> => import('$lib/cache/write');

export const storeList: Writes['storeList'] = async (...args) =>
	(await writes()).storeList(...args);

export const storeTree: Writes['storeTree'] = async (...args) =>
	(await writes()).storeTree(...args);

export const storeArticles: Writes['storeArticles'] = async (...args) =>
	(await writes()).storeArticles(...args);
