/**
 * The read cache's writes (cache/cache-reads.ts reads): a fresh copy from the server stored over the
 * cached one, with the changes still waiting in the outbox applied again. Apart from the reads so
 * that the first screen, which only reads, does not carry them: the page loads this module with the
 * answer it stores (state/), the sync and the service worker import it (cache/kept.ts).
 */
import {
	headlineOnlyDefaults,
	type Article,
	type ArticleBase,
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
import type { OutboxItem, StoredArticle, StoredTree } from '$lib/db/schema';
import { writeStoresWithRoom } from '$lib/db/quota';
import { indexArticles } from '$lib/db/index-queue';
import { listKeyString, type ListKey } from './cache-reads';

export async function storeTree(tree: FeedTree, counters: Counters | undefined): Promise<void> {
	await writeStoresWithRoom(['tree', 'settings'], async (stores) => {
		// A tab still open for an account that is no longer signed in here writes nothing.
		if (mayWriteCache(await readIn(stores.settings, CACHE_OWNER))) {
			await stores.tree.put({ tree, counters, fetchedAt: Date.now() }, 'current');
		}
	});
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
	const listKey = listKeyString(key);
	const written = await writeStoresWithRoom(
		['lists', 'articles', 'outbox', 'tree', 'settings'],
		async (stores) => {
			if (!mayWriteCache(await readIn(stores.settings, CACHE_OWNER))) return [];
			const old = skip > 0 ? await stores.lists.get(listKey) : undefined;
			const ids = [...(old?.ids.slice(0, skip) ?? []), ...headlines.map((h) => h.id)];
			await stores.lists.put({
				key: listKey,
				ids: [...new Set(ids)],
				complete,
				fetchedAt: Date.now()
			});
			return writeArticles(stores, headlines.map(fromHeadline), undefined, readAt);
		}
	);
	indexArticles(written);
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
	const written = await writeStoresWithRoom(CACHE_WRITE_STORES, write);
	indexArticles(written);
}

/** Whether records fetched for `account` (this page's, when not named) may be written. */
export function ownedBy(owner: unknown, account: string | undefined): boolean {
	return mayWriteCache(owner, account);
}

// ------------------------------------------------------------------ records

export interface WriteStores {
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
		// Without its body tt-rss sends no image either (`flavor_image`): the known one stays. Nor,
		// on the current tt-rss (its plugin hook runs only on rows sent with their body), the
		// Reader plugin's signed page address for full text (`reader_page`): the known one stays
		// while the link it signs is the same.
		if (old && !record.hasContent) {
			record.flavorImage ??= old.flavorImage;
			record.flavorStream ??= old.flavorStream;
			if (old.pageUrl && old.link === record.link) record.pageUrl ??= old.pageUrl;
		}
		if (old && !record.hasContent && old.hasContent) {
			record.content = old.content;
			// The kept body keeps what it was fetched under: iframes depend on it, and its images
			// name the Reader plugin's proxy addresses signed with it.
			record.hasSandbox = old.hasSandbox;
			if (old.signedImages)
				record.signedImages = { ...old.signedImages, ...(record.signedImages ?? {}) };
			record.hasContent = true;
			record.comments = record.comments || old.comments;
		}
		if (old?.offline) record.offline = true;
		// A kept full text (sync/full-text-step.ts) stays with its article.
		if (old?.fullText && !record.fullText) record.fullText = old.fullText;
		// The reader's own change of it stays known: no rule acts on it (outbox/intent-effect.ts).
		if (old?.readerChangedAt !== undefined) record.readerChangedAt = old.readerChangedAt;
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

/** What the reader changes of an article: what the outbox's changes apply to. */
type ReaderField = 'unread' | 'marked' | 'published' | 'labels' | 'note';

/** What the reader changes of an article (its flags, labels and note): what the outbox applies. */
export function readerState(a: ArticleBase): Pick<ArticleBase, ReaderField> {
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
		...headlineOnlyDefaults(),
		hasContent: a.content !== undefined,
		storedAt: Date.now(),
		offline: false
	};
}
