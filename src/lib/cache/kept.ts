/**
 * The sync's writes of kept articles (sync/engine.ts): offline rows and bodies, the flags and packs
 * a full read of the server's sets corrects. Apart from index.ts (what every screen reads and
 * stores), so the first screen's code does not carry them; they load with the sync, after it.
 */
import type { Article, Headline } from '$lib/api';
import { CACHE_OWNER } from '$lib/db/keys';
import { readIn } from '$lib/db/kv';
import type { KeptFullText, StoredArticle } from '$lib/db/schema';
import { readStores, writeStores } from '$lib/db/stores';
import { writeStoresWithRoom } from '$lib/db/quota';
import { orMiss } from './cache-reads';
import {
	CACHE_WRITE_STORES,
	fromArticle,
	fromHeadline,
	ownedBy,
	readerState,
	writeArticles,
	writeArticlesInTx
} from './write';

/**
 * Rows kept for offline reading by the sync engine (sync/): with content they count as offline
 * copies; without it (a kept set's state read again) they update flags, note and labels and keep
 * the known body. `pack` adds the article to that offline pack.
 */
export async function storeOfflineHeadlines(
	headlines: readonly Headline[],
	{ pack, account, readAt }: { pack?: string } & SyncedFor = {}
): Promise<void> {
	const records = headlines.map((h) => {
		const record = fromHeadline(h);
		record.offline = record.hasContent;
		if (pack !== undefined) record.packs = [pack];
		return record;
	});
	await writeArticlesInTx((stores) => writeArticles(stores, records, account, readAt));
}

/**
 * The account a sync fetched for: its writes are dropped, in the writing transaction, when the
 * cache has meanwhile passed to another account (a sign-in as someone else during a sync).
 */
export interface SyncedFor {
	account?: string;
	/** When this answer was asked for: changes the server confirmed since then are put back on. */
	readAt?: number;
}

/**
 * Bodies from getArticle for rows already kept: their headline fields stay as they are, the reader's
 * state is the server's answer, with the outbox's waiting changes applied again (as to any answer).
 * Not the cached state: it has those changes on already, and a catch-up applied again over it would
 * be judged on changes made after it (a star after a catch-up of Starred read as inside it).
 */
export async function storeArticleBodies(
	articles: readonly Article[],
	{ account, readAt }: SyncedFor = {}
): Promise<void> {
	await writeArticlesInTx(async (stores) => {
		const records: StoredArticle[] = [];
		for (const a of articles) {
			const old = await stores.articles.get(a.id);
			const fresh = { ...fromArticle(a), offline: true };
			records.push(
				old
					? {
							...old,
							...readerState(fresh),
							content: fresh.content,
							hasContent: fresh.hasContent,
							hasSandbox: fresh.hasSandbox,
							comments: fresh.comments,
							storedAt: fresh.storedAt,
							offline: true
						}
					: fresh
			);
		}
		return writeArticles(stores, records, account, readAt);
	});
}

/** Of these ids, those not cached with their body. */
export function idsWithoutContent(ids: readonly number[]): Promise<number[]> {
	return orMiss(async () => {
		const rows = await readStores(['articles'], ({ articles }) =>
			Promise.all(ids.map((id) => articles.get(id)))
		);
		return ids.filter((_, i) => !rows[i]?.hasContent);
	}).then((missing) => missing ?? [...ids]);
}

/** A kept article's body, with the Reader plugin's signed image addresses where it has them. */
export interface KeptBody {
	content: string;
	link: string;
	signedImages?: Readonly<Record<string, string>>;
}

/**
 * The bodies of the kept articles (offline) with their links: where a sync whose images were cut
 * short (the page went away) finds them again. Only these ids' when given (one read each);
 * otherwise every cached article is read.
 */
export function keptBodies(ids?: readonly number[]): Promise<KeptBody[]> {
	return orMiss(async () => {
		const rows = await readStores(['articles'], ({ articles }) =>
			ids ? Promise.all(ids.map((id) => articles.get(id))) : articles.getAll()
		);
		const bodies: KeptBody[] = [];
		for (const a of rows) {
			if (a?.offline && a.hasContent && a.content)
				bodies.push({
					content: a.content,
					link: a.link,
					...(a.signedImages ? { signedImages: a.signedImages } : {})
				});
		}
		return bodies;
	}).then((found) => found ?? []);
}

export type KeptFlag = 'unread' | 'marked' | 'published';

/**
 * The server's whole set of unread (or starred, or published) ids was read: cached articles that
 * carry the flag but are not in it lost it elsewhere. Pending outbox changes are applied again, so
 * a change still waiting wins. Returns the ids whose record changed.
 */
export async function clearFlagOutside(
	flag: KeptFlag,
	kept: ReadonlySet<number>,
	{ account, readAt }: SyncedFor = {}
): Promise<number[]> {
	const written = await writeStoresWithRoom(CACHE_WRITE_STORES, async (stores) => {
		const stale = (await stores.articles.getAll()).filter((r) => r[flag] && !kept.has(r.id));
		return writeArticles(
			stores,
			stale.map((r) => ({ ...r, [flag]: false })),
			account,
			readAt
		);
	});
	return written.map((r) => r.id);
}

/** A pack now holds exactly these ids: the others leave it (eviction may then drop them). */
export async function setPackMembers(
	pack: string,
	members: ReadonlySet<number>,
	{ account }: SyncedFor = {}
): Promise<void> {
	// Only ever smaller records: no room to free first.
	await writeStores(['articles', 'settings'], async (stores) => {
		if (!ownedBy(await readIn(stores.settings, CACHE_OWNER), account)) return;
		let cursor = await stores.articles.openCursor();
		while (cursor) {
			const record = cursor.value;
			if (record.packs?.includes(pack) && !members.has(record.id)) {
				const packs = record.packs.filter((p) => p !== pack);
				const next: StoredArticle = { ...record };
				if (packs.length > 0) next.packs = packs;
				else delete next.packs;
				await cursor.update(next);
			}
			cursor = await cursor.continue();
		}
	});
}

/**
 * The cached articles of these feeds that the plugin offers a page for and that have no kept full
 * text yet (sync/full-text-step.ts): their id and signed page address, newest first.
 */
export function withoutFullText(
	feeds: ReadonlySet<number>
): Promise<{ id: number; pageUrl: string }[]> {
	return orMiss(async () => {
		const rows = await readStores(['articles'], ({ articles }) =>
			Promise.all([...feeds].map((feed) => articles.index('byFeed').getAll(feed)))
		);
		const due: { id: number; pageUrl: string; updated: number }[] = [];
		for (const a of rows.flat()) {
			if (a.pageUrl && !a.fullText) due.push({ id: a.id, pageUrl: a.pageUrl, updated: a.updated });
		}
		return due.sort((a, b) => b.updated - a.updated).map(({ id, pageUrl }) => ({ id, pageUrl }));
	}).then((due) => due ?? []);
}

/**
 * Keeps an article's full text in its record (the record must still be there, and the cache still
 * the account's the sync fetched for): counted in the budget and evicted with the article.
 */
export async function storeFullText(
	id: number,
	fullText: KeptFullText,
	{ account }: SyncedFor = {}
): Promise<boolean> {
	return writeStoresWithRoom(['articles', 'settings'], async ({ articles, settings }) => {
		if (!ownedBy(await readIn(settings, CACHE_OWNER), account)) return false;
		const record = await articles.get(id);
		if (!record) return false;
		await articles.put({ ...record, fullText });
		return true;
	});
}
