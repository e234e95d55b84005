/**
 * The read cache the screens render from first (IndexedDB). Every screen shows what is cached at
 * once, then refreshes from the server and stores the fresh copy (cache/write.ts).
 *
 * Changes still waiting in the outbox are applied again to whatever the server sends, so a
 * cached article marked read offline stays read after a reload, even when a refresh from the
 * server arrives before the outbox has been replayed.
 */
import { isLabelFeedId, SPECIAL_FEED, viewModeKeeps, type Article, type Headline } from '$lib/api';
import type { StoredArticle, StoredTree } from '$lib/db/schema';
import { readStores, storedArticle, storedTree, type Stores } from '$lib/db/stores';

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

export interface CachedList {
	headlines: Headline[];
	/** True when the server said there is nothing after the last headline. */
	complete: boolean;
	fetchedAt: number;
	/** Ids after the first `first` rows, not read yet (see `cachedRows`). */
	rest: number[];
	/** What `complete` becomes once `rest` has been read whole. */
	completeWithRest: boolean;
}

/** Rows read for a list's first screen; more would only delay its first paint. */
export const FIRST_SCREEN_ROWS = 40;

/** Reads never fail the screen: a broken or missing database is a cache miss. */
export async function orMiss<T>(read: () => Promise<T | undefined>): Promise<T | undefined> {
	try {
		return await read();
	} catch {
		return undefined;
	}
}

export function cachedTree(): Promise<StoredTree | undefined> {
	return orMiss(storedTree);
}

/**
 * A cached list: its first `first` rows (all by default), and the ids of the rest for
 * `cachedRows`. Each row is one read, so a start reads a screenful first: 200 reads took
 * 170–230 ms of a warm start, 40 take a fraction of that.
 */
export function cachedList(
	key: ListKey,
	{ first = Infinity }: { first?: number } = {}
): Promise<CachedList | undefined> {
	return orMiss(async () => {
		return readStores(['lists', 'articles'], async (stores): Promise<CachedList | undefined> => {
			const list = await stores.lists.get(listKeyString(key));
			// Never opened online, but its articles may have been made available offline.
			if (!list) return listFromArticles(stores.articles, key);
			const ids = list.ids.slice(0, first);
			const headlines = await readHeadlines(stores.articles, ids);
			const rest = list.ids.slice(ids.length);
			// Rows evicted under storage pressure make the list incomplete again.
			const completeWithRest = list.complete && headlines.length === ids.length;
			return {
				headlines,
				complete: completeWithRest && rest.length === 0,
				completeWithRest,
				fetchedAt: list.fetchedAt,
				rest
			};
		});
	});
}

/** The cached rows of these ids, in their order; evicted ones are left out. */
export function cachedRows(ids: readonly number[]): Promise<Headline[]> {
	return orMiss(async () => {
		return readStores(['articles'], ({ articles }) => readHeadlines(articles, ids));
	}).then((rows) => rows ?? []);
}

/** One read per id, in the ids' order; evicted rows are left out. */
async function readHeadlines(
	articles: { get(id: number): Promise<StoredArticle | undefined> },
	ids: readonly number[]
): Promise<Headline[]> {
	const rows = await Promise.all(ids.map((id) => articles.get(id)));
	return rows.filter((r): r is StoredArticle => r !== undefined).map(toHeadline);
}

/**
 * A list nobody opened online yet, made from the cached articles themselves: a feed's own articles
 * (by index), All / Starred / Published across the cache, a label's articles, or a category kept as
 * an offline pack. Other lists (other categories, searches, Fresh) need the server's answer.
 */
async function listFromArticles(
	articles: Stores<('lists' | 'articles')[], 'readonly'>['articles'],
	key: ListKey
): Promise<CachedList | undefined> {
	if (key.search !== '') return undefined;
	const feedId = key.feedId;
	let rows: StoredArticle[];
	if (typeof feedId === 'string') {
		// A tag feed: the cached articles carrying the tag (tt-rss matches tags without case).
		const tag = feedId.toLowerCase();
		rows = (await articles.getAll()).filter((r) => r.tags.some((t) => t.toLowerCase() === tag));
	} else if (key.isCat)
		rows = (await articles.getAll()).filter((r) => r.packs?.includes(`cat:${feedId}`));
	else if (isLabelFeedId(feedId))
		rows = (await articles.getAll()).filter((r) => r.labels.some((l) => l.id === feedId));
	else if (feedId > 0) rows = await articles.index('byFeed').getAll(feedId);
	else if (
		feedId === SPECIAL_FEED.all ||
		feedId === SPECIAL_FEED.starred ||
		feedId === SPECIAL_FEED.published
	)
		rows = await articles.getAll();
	else return undefined;
	if (feedId === SPECIAL_FEED.starred) rows = rows.filter((r) => r.marked);
	if (feedId === SPECIAL_FEED.published) rows = rows.filter((r) => r.published);
	const keep = viewModeKeeps(key.viewMode, { feedId, anyUnread: rows.some((r) => r.unread) });
	if (keep) rows = rows.filter(keep);
	if (rows.length === 0) return undefined;
	const oldestFirst = key.orderBy === 'date_reverse';
	rows.sort((a, b) => (oldestFirst ? a.updated - b.updated : b.updated - a.updated));
	return {
		headlines: rows.map(toHeadline),
		complete: true,
		fetchedAt: Math.max(...rows.map((r) => r.storedAt)),
		rest: [],
		completeWithRest: true
	};
}

/**
 * Every cached article `keep` accepts (of `feeds`, when given), newest first or oldest first: a
 * list only this device makes (the Today feed), read with one cursor over the articles store.
 */
export function cachedMatching(options: {
	keep?: ((row: Headline) => boolean) | undefined;
	feeds?: ReadonlySet<number> | undefined;
	oldestFirst?: boolean | undefined;
	/** Only articles dated at or after this (seconds), read through the date index. */
	updatedSince?: number | undefined;
}): Promise<Headline[]> {
	return orMiss(async () => {
		const found = await readStores(['articles'], async ({ articles }) => {
			const rows: Headline[] = [];
			let cursor =
				options.updatedSince === undefined
					? await articles.openCursor()
					: await articles
							.index('byUpdated')
							.openCursor(IDBKeyRange.lowerBound(options.updatedSince));
			while (cursor) {
				const row = toHeadline(cursor.value);
				const inFeeds = !options.feeds || (row.feedId !== null && options.feeds.has(row.feedId));
				if (inFeeds && (!options.keep || options.keep(row))) rows.push(row);
				cursor = await cursor.continue();
			}
			return rows;
		});
		const sign = options.oldestFirst ? 1 : -1;
		return found.sort((a, b) => sign * (a.updated - b.updated) || sign * (a.id - b.id));
	}).then((rows) => rows ?? []);
}

export function cachedArticle(id: number): Promise<Article | undefined> {
	return orMiss(async () => {
		const stored = await storedArticle(id);
		return stored?.hasContent ? toArticle(stored) : undefined;
	});
}

const STORED_ONLY = ['comments', 'hasContent', 'storedAt', 'offline'] as const;
const HEADLINE_ONLY = [
	'isUpdated',
	'tags',
	'excerpt',
	'commentsCount',
	'commentsLink',
	'alwaysDisplayAttachments',
	'flavorKind'
] as const;

function without(record: StoredArticle, keys: readonly string[]): Record<string, unknown> {
	const copy: Record<string, unknown> = { ...record };
	for (const key of keys) delete copy[key];
	return copy;
}

function toHeadline(s: StoredArticle): Headline {
	return without(s, STORED_ONLY) as unknown as Headline;
}

function toArticle(s: StoredArticle): Article {
	const article = without(s, [...STORED_ONLY, ...HEADLINE_ONLY]) as unknown as Article;
	article.comments = s.comments;
	return article;
}
