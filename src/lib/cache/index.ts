/**
 * The read cache the screens render from first (IndexedDB). Every screen shows what is cached at
 * once, then refreshes from the server and stores the fresh copy here.
 *
 * Placeholder until the offline cache lands: nothing is kept, every read misses.
 */
import type { Article, Counters, FeedTree, Headline } from '$lib/api';

/** Identifies one headline list: feed or category, view mode, order, search. */
export interface ListKey {
	feedId: number | string;
	isCat: boolean;
	viewMode: string;
	orderBy: string;
	search: string;
}

export function listKeyString(key: ListKey): string {
	return JSON.stringify([key.feedId, key.isCat, key.viewMode, key.orderBy, key.search]);
}

export interface CachedTree {
	tree: FeedTree;
	counters: Counters | undefined;
	fetchedAt: number;
}

export interface CachedList {
	headlines: Headline[];
	/** True when the server said there is nothing after the last headline. */
	complete: boolean;
	fetchedAt: number;
}

export function cachedTree(): Promise<CachedTree | undefined> {
	return Promise.resolve(undefined);
}

export function storeTree(_tree: FeedTree, _counters: Counters | undefined): Promise<void> {
	return Promise.resolve();
}

export function cachedList(_key: ListKey): Promise<CachedList | undefined> {
	return Promise.resolve(undefined);
}

/** `skip` 0 replaces the list; a later page is appended. */
export function storeList(
	_key: ListKey,
	_skip: number,
	_headlines: readonly Headline[],
	_complete: boolean
): Promise<void> {
	return Promise.resolve();
}

export function cachedArticle(_id: number): Promise<Article | undefined> {
	return Promise.resolve(undefined);
}

export function storeArticles(_articles: readonly Article[]): Promise<void> {
	return Promise.resolve();
}
