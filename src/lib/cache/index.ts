/**
 * The read cache the screens render from first (IndexedDB). Every screen shows what is cached at
 * once, then refreshes from the server and stores the fresh copy here.
 *
 * Changes still waiting in the outbox are applied again to whatever the server sends, so a
 * cached article marked read offline stays read after a reload, even when a refresh from the
 * server arrives before the outbox has been replayed.
 */
import {
	isLabelFeedId,
	SPECIAL_FEED,
	viewModeKeeps,
	type Article,
	type Counters,
	type FeedTree,
	type Headline
} from '$lib/api';
import { mayWriteCache } from '$lib/db/account';
import { changesNotIn } from '$lib/outbox/sent-log';
import { applyNotingHold } from '$lib/outbox/hold-note';
import { laterThanCatchups } from '$lib/outbox/apply';
import { CACHE_OWNER } from '$lib/db/keys';
import { readIn } from '$lib/db/kv';
import { openReaderDb } from '$lib/db/open';
import type { IDBPObjectStore, IDBPTransaction } from 'idb';
import type { OutboxItem, ReaderDB, StoredArticle, StoredTree } from '$lib/db/schema';
import { readTx, writeTxWithRoom } from '$lib/db/tx';
import { indexArticles } from '$lib/db/index-queue';

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
	return orMiss(async () => {
		const db = await openReaderDb();
		return db.get('tree', 'current');
	});
}

export async function storeTree(tree: FeedTree, counters: Counters | undefined): Promise<void> {
	const db = await openReaderDb();
	await writeTxWithRoom(db, ['tree', 'settings'], async (tx) => {
		// A tab still open for an account that is no longer signed in here writes nothing.
		if (mayWriteCache(await readIn(tx.objectStore('settings'), CACHE_OWNER))) {
			await tx.objectStore('tree').put({ tree, counters, fetchedAt: Date.now() }, 'current');
		}
	});
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
		const db = await openReaderDb();
		return readTx(db, ['lists', 'articles'], async (tx): Promise<CachedList | undefined> => {
			const list = await tx.objectStore('lists').get(listKeyString(key));
			// Never opened online, but its articles may have been made available offline.
			if (!list) return listFromArticles(tx.objectStore('articles'), key);
			const ids = list.ids.slice(0, first);
			const headlines = await readHeadlines(tx.objectStore('articles'), ids);
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
		const db = await openReaderDb();
		return readTx(db, ['articles'], (tx) => readHeadlines(tx.store, ids));
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
	articles: IDBPObjectStore<ReaderDB, ('lists' | 'articles')[], 'articles', 'readonly'>,
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
		const db = await openReaderDb();
		const found = await readTx(db, ['articles'], async (tx) => {
			const rows: Headline[] = [];
			const articles = tx.objectStore('articles');
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

/** `skip` 0 replaces the list; a later page is appended. */
export async function storeList(
	key: ListKey,
	skip: number,
	headlines: readonly Headline[],
	complete: boolean,
	/** When the rows were asked for (see writeArticles). */
	readAt?: number
): Promise<void> {
	const db = await openReaderDb();
	const listKey = listKeyString(key);
	const written = await writeTxWithRoom(
		db,
		['lists', 'articles', 'outbox', 'tree', 'settings'],
		async (tx) => {
			if (!mayWriteCache(await readIn(tx.objectStore('settings'), CACHE_OWNER))) return [];
			const lists = tx.objectStore('lists');
			const old = skip > 0 ? await lists.get(listKey) : undefined;
			const ids = [...(old?.ids.slice(0, skip) ?? []), ...headlines.map((h) => h.id)];
			await lists.put({ key: listKey, ids: [...new Set(ids)], complete, fetchedAt: Date.now() });
			return writeArticles(storesOf(tx), headlines.map(fromHeadline), undefined, readAt);
		}
	);
	indexArticles(written);
}

export function cachedArticle(id: number): Promise<Article | undefined> {
	return orMiss(async () => {
		const db = await openReaderDb();
		const stored = await db.get('articles', id);
		return stored?.hasContent ? toArticle(stored) : undefined;
	});
}

export async function storeArticles(
	articles: readonly Article[],
	/** When they were asked for (see writeArticles). */
	readAt?: number
): Promise<void> {
	await writeArticlesInTx((stores) =>
		writeArticles(stores, articles.map(fromArticle), undefined, readAt)
	);
}

/*
 * The helpers below are exported for kept.ts (the sync's writes), which shares them; screens
 * and features use the functions above.
 */

/**
 * One cache write of article records (`write` merges and writes them, see writeArticles), with
 * the full-quota retry; the search index is told what was written once it has committed.
 */
export async function writeArticlesInTx(
	write: (stores: WriteStores) => Promise<StoredArticle[]>
): Promise<void> {
	const db = await openReaderDb();
	const written = await writeTxWithRoom(db, CACHE_WRITE_STORES, (tx) => write(storesOf(tx)));
	indexArticles(written);
}

/** Whether records fetched for `account` (this page's, when not named) may be written. */
export function ownedBy(owner: unknown, account: string | undefined): boolean {
	return mayWriteCache(owner, account);
}

// ------------------------------------------------------------------ records

interface WriteStores {
	articles: {
		get(id: number): Promise<StoredArticle | undefined>;
		put(value: StoredArticle): Promise<number>;
	};
	outbox: { getAll(): Promise<OutboxItem[]>; put(value: OutboxItem): Promise<number> };
	tree: { get(key: 'current'): Promise<StoredTree | undefined> };
	settings: { get(key: string): Promise<unknown> };
}

/** The stores a write of article records reads and writes (the outbox's changes go back on). */
export const CACHE_WRITE_STORES: ['articles', 'outbox', 'tree', 'settings'] = [
	'articles',
	'outbox',
	'tree',
	'settings'
];

/** A write transaction over (at least) CACHE_WRITE_STORES. */
type CacheWriteTx = Pick<
	IDBPTransaction<ReaderDB, typeof CACHE_WRITE_STORES, 'readwrite'>,
	'objectStore'
>;

export function storesOf(tx: CacheWriteTx): WriteStores {
	return {
		articles: tx.objectStore('articles'),
		outbox: tx.objectStore('outbox'),
		tree: tx.objectStore('tree'),
		settings: tx.objectStore('settings')
	};
}

/**
 * Merges fresh records with what is cached (a headline without content keeps a known body) and
 * re-applies the pending outbox in its order. Returns the records written (for the search index,
 * told once the transaction has committed).
 */
export async function writeArticles(
	stores: WriteStores,
	fresh: StoredArticle[],
	/** The account the records were fetched for, where the caller knows it (sync/). */
	account?: string,
	/** When the records were asked for: changes the server confirmed since are put back on. */
	readAt?: number
): Promise<StoredArticle[]> {
	// Only the changes of the account this cache belongs to: another account's kept changes are
	// for its own articles, which may carry the same ids (on another server).
	const owner = await readIn(stores.settings, CACHE_OWNER);
	if (!ownedBy(owner, account)) return [];
	const { changes: pending, unknown } = await changesNotIn(stores, owner, readAt);
	const tree = pending.length > 0 ? (await stores.tree.get('current'))?.tree : undefined;
	const later = laterThanCatchups(pending);
	const store = stores.articles;
	const heldNoted = new Set<OutboxItem>();
	// Every cached copy asked for at once, every write sent at once: a page of 200 costs one wait
	// for the database, not 400 one after another. A record met twice in one batch sees the
	// first one's merge, as it would one after the other.
	const cached = await Promise.all(fresh.map((record) => store.get(record.id)));
	const merged = new Map<number, StoredArticle>();
	const puts: Promise<number>[] = [];
	for (const [i, record] of fresh.entries()) {
		const old = merged.get(record.id) ?? cached[i];
		if (old && !record.hasContent && old.hasContent) {
			record.content = old.content;
			// The kept body keeps what it was fetched under: iframes depend on it.
			record.hasSandbox = old.hasSandbox;
			record.hasContent = true;
			record.comments = record.comments || old.comments;
		}
		if (old?.offline) record.offline = true;
		// Asked for before the sent log's horizon: the answer may predate a change of the reader's
		// the log no longer names, so the cached copy keeps its own state (the next sync's read,
		// asked for after, brings the server's).
		if (old && unknown) Object.assign(record, readerState(old));
		// Pack membership is only ever taken away by setPackMembers.
		const packs = [...new Set([...(old?.packs ?? []), ...(record.packs ?? [])])];
		if (packs.length > 0) record.packs = packs;
		for (const [index, item] of pending.entries()) {
			// A held change applied here must be put back here too if it is undone.
			if (applyNotingHold(item, record, tree, later[index])) heldNoted.add(item as OutboxItem);
		}
		merged.set(record.id, record);
		puts.push(store.put(record));
	}
	await Promise.all(puts);
	for (const item of heldNoted) await stores.outbox.put(item);
	return fresh;
}

function readerState(a: StoredArticle): Partial<StoredArticle> {
	return {
		unread: a.unread,
		marked: a.marked,
		published: a.published,
		labels: a.labels,
		note: a.note
	};
}

export function fromHeadline(h: Headline): StoredArticle {
	return {
		...h,
		comments: '',
		hasContent: h.content !== undefined && h.content !== '',
		storedAt: Date.now(),
		offline: false
	};
}

export function fromArticle(a: Article): StoredArticle {
	return {
		...a,
		isUpdated: false,
		tags: [],
		excerpt: undefined,
		commentsCount: 0,
		commentsLink: '',
		alwaysDisplayAttachments: false,
		flavorKind: undefined,
		hasContent: a.content !== undefined,
		storedAt: Date.now(),
		offline: false
	};
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
