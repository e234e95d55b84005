/**
 * The outbox in IndexedDB: enqueue (coalesced, applied to the cache in the same transaction) and
 * the pending and failed lists; every change is announced to all tabs and the worker (broadcast.ts).
 */
import type { IDBPTransaction } from 'idb';
import { openReaderDb, type ReaderDatabase } from '$lib/db/open';
import type { FailedItem, OutboxItem, ReaderDB, StoredArticle, StoredTree } from '$lib/db/schema';
import { RefusedError, type ArticleBase, type Counters, type FeedTree } from '$lib/api';
import { CACHE_OWNER_KEY } from '$lib/db/keys';
import { abortQuietly } from '$lib/db/tx';
import { accountOfNewChanges } from '$lib/db/session';
import { withQuotaRetry } from '$lib/db/quota';
import {
	adjustCounters,
	applyCatchupToCounters,
	applyToArticle,
	inCatchupScope,
	splitIntent
} from './apply';
import { changesNotIn } from './sent-log';
import { changedCounters, counterValues, inverseOf, type Hold, type HoldUndo } from './hold';
import { titlesOf } from '$lib/tree/walk';
import { announceOutboxChange } from './broadcast';
import type { Intent, IntentNames } from './intent';

type CacheTx = IDBPTransaction<
	ReaderDB,
	('outbox' | 'articles' | 'tree' | 'settings')[],
	'readwrite'
>;

/**
 * Writes an intent to the outbox, replacing older items for the same article and field, and
 * applies it to the cached articles and counters, all in one transaction. Resolves once durable.
 * A full quota first frees cache room; if the cache still cannot be written, the intent is kept
 * in the outbox alone (the reader's change matters more than the cached copy).
 * With `hold`, the change waits while the reader can undo it (outbox/hold.ts), keeping what
 * undoing it must put back.
 */
export async function enqueueIntent(intent: Intent, now = Date.now(), hold?: Hold): Promise<void> {
	const db = await openReaderDb();
	const account = await accountOfNewChanges();
	const drafts = splitIntent(
		intent.type === 'catchup' ? await withVisibleBound(db, intent, account) : intent,
		now
	);
	try {
		await withQuotaRetry(db, () => writeItems(db, drafts, now, true, account, hold));
	} catch {
		await writeItems(db, drafts, now, false, account, hold);
	}
	announceOutboxChange();
}

async function writeItems(
	db: ReaderDatabase,
	drafts: ReturnType<typeof splitIntent>,
	now: number,
	applyToCache: boolean,
	/** The account the change was made in: only its session ever sends it. */
	account: string | undefined,
	hold: Hold | undefined
): Promise<void> {
	const stores = applyToCache
		? (['outbox', 'articles', 'tree', 'settings'] as const)
		: (['outbox'] as const);
	const tx = db.transaction([...stores], 'readwrite');
	try {
		const outbox = tx.objectStore('outbox');
		const undo: HoldUndo[] | undefined = hold ? drafts.map(() => ({ replaced: [] })) : undefined;
		// A tab left open for an earlier account queues its change for that account; the cache is
		// another account's now (the same ids name other articles there): it stays as it is.
		const owner = applyToCache ? await tx.objectStore('settings').get(CACHE_OWNER_KEY) : undefined;
		const ownCache = account === undefined || owner === undefined || owner === account;
		if (applyToCache && ownCache) await applyDraftsToCache(tx, drafts, undo);
		for (const [index, draft] of drafts.entries()) {
			// Coalesce: the last intent for a key wins; it takes the newest place in the queue. Only
			// within one account: the same article id in another account is another article. A held
			// change keeps what it replaced: undoing it puts that back.
			// A replaced change sent without an answer may still land after this one: this one is
			// then sent once more after it is confirmed (replay.ts `confirm`).
			let overtakes: number | undefined;
			for (const older of await outbox.index('byKey').getAll(draft.key)) {
				if (older.seq === undefined || older.account !== account) continue;
				await outbox.delete(older.seq);
				undo?.[index]?.replaced.push(older);
				const doubt = unansweredAt(older);
				if (doubt !== undefined) overtakes = Math.max(overtakes ?? doubt, doubt);
			}
			const item: OutboxItem = {
				key: draft.key,
				intent: draft.intent,
				createdAt: now,
				attempts: 0,
				...(overtakes !== undefined ? { overtakes } : {}),
				...(draft.articleId !== undefined ? { articleId: draft.articleId } : {}),
				...(account !== undefined ? { account } : {}),
				...(hold ? { heldUntil: hold.until, undoId: hold.id, undo: undo?.[index] } : {})
			};
			await outbox.add(item);
		}
		await tx.done;
	} catch (error) {
		abortQuietly(tx);
		throw error;
	}
}

/**
 * When a queued change of an article was last sent without an answer, or the unanswered send an
 * earlier one it replaced may still be (undefined: nothing of it can still be on its way).
 */
function unansweredAt(item: OutboxItem): number | undefined {
	if (item.intent.type === 'catchup' || item.intent.type === 'share') return undefined;
	const times = [item.attemptedAt, item.overtakes].filter((t) => t !== undefined);
	return times.length > 0 ? Math.max(...times) : undefined;
}

/** Applies the drafts to the cache; with `undo`, notes for each what undoing it puts back. */
async function applyDraftsToCache(
	tx: CacheTx,
	drafts: ReturnType<typeof splitIntent>,
	undo: HoldUndo[] | undefined
): Promise<void> {
	const treeStore = tx.objectStore('tree');
	const stored: StoredTree | undefined = await treeStore.get('current');
	const articles = tx.objectStore('articles');
	let countersChanged = false;
	for (const [index, draft] of drafts.entries()) {
		const intent = draft.intent;
		const record = undo?.[index];
		const targets =
			draft.articleId !== undefined
				? [await articles.get(draft.articleId)]
				: intent.type === 'catchup'
					? await articlesForCatchup(tx.objectStore('articles'), intent)
					: [];
		for (const article of targets) {
			if (!article) continue;
			if (record && draft.articleId !== undefined) record.inverse = inverseOf(intent, article);
			const delta = applyToArticle(article, intent, stored?.tree);
			await articles.put(article);
			if (delta !== 0) {
				adjustCounters(stored?.counters, stored?.tree, article, delta);
				countersChanged = true;
				if (record && intent.type === 'catchup') (record.markedRead ??= []).push(article.id);
			}
		}
		if (intent.type === 'catchup') {
			const before = record ? counterValues(stored?.counters) : [];
			applyCatchupToCounters(stored?.counters, stored?.tree, intent);
			if (record) record.counters = changedCounters(before, stored?.counters);
			countersChanged = true;
		}
	}
	if (stored && countersChanged) await treeStore.put(stored, 'current');
}

type CatchupIntent = Extract<Intent, { type: 'catchup' }>;

/**
 * Records in a catch-up the highest article id the reader could see in its scope: the cached
 * articles of the scope and what the caller saw on screen (`maxId` already in the intent). Replay
 * never marks anything above it, however late it is sent. A scope with nothing cached (caught up
 * from the feed list, by its counter) gets the highest id of the whole cache: tt-rss numbers
 * articles as they arrive, so that bounds what had arrived when the device last heard from it.
 *
 * A tab left open for an earlier account (another tab signed in as someone else; it reloads when it
 * hears so) must not bound its catch-up by a cache that is now the other account's: it keeps the
 * rows it showed, and without any it refuses, with words the reader can act on.
 */
async function withVisibleBound(
	db: ReaderDatabase,
	intent: CatchupIntent,
	account: string | undefined
): Promise<CatchupIntent> {
	if (account !== undefined && !(await cacheIsOf(db, account))) {
		if (intent.maxId !== undefined) return intent;
		throw new RefusedError(STALE_TAB);
	}
	let maxId = intent.maxId;
	try {
		const tx = db.transaction(['articles', 'tree'], 'readonly');
		const tree = (await tx.objectStore('tree').get('current'))?.tree;
		for (const article of await articlesForCatchup(tx.objectStore('articles'), intent)) {
			if (inCatchupScope(intent, article, tree) && (maxId === undefined || article.id > maxId)) {
				maxId = article.id;
			}
		}
		if (maxId === undefined) {
			const newest = await tx.objectStore('articles').openKeyCursor(null, 'prev');
			if (newest) maxId = newest.key;
		}
		await tx.done;
	} catch {
		// The cache cannot be read: the rows on screen are all the reader saw.
	}
	return maxId === undefined ? intent : { ...intent, maxId };
}

const STALE_TAB =
	'This tab shows an account that is no longer the one signed in on this device. Reload the page, then try again.';

/** Whether the cache holds this account's articles (or nobody's yet). */
async function cacheIsOf(db: ReaderDatabase, account: string): Promise<boolean> {
	try {
		const owner = await db.get('settings', CACHE_OWNER_KEY);
		return owner === undefined || owner === account;
	} catch {
		// Unreadable: the bound below falls back to the rows on screen anyway.
		return true;
	}
}

async function articlesForCatchup(
	articles: {
		getAll(): Promise<StoredArticle[]>;
		index(name: 'byFeed'): { getAll(feedId: number): Promise<StoredArticle[]> };
	},
	intent: CatchupIntent
): Promise<StoredArticle[]> {
	if (!intent.isCat && typeof intent.feedId === 'number' && intent.feedId > 0) {
		return articles.index('byFeed').getAll(intent.feedId);
	}
	return articles.getAll();
}

/** Titles and names the pending and failed lists show for these intents (from the cache). */
export async function intentNames(intents: readonly Intent[]): Promise<IntentNames> {
	const ids = new Set(
		intents.flatMap((i) =>
			i.type === 'note' ? [i.articleId] : 'articleIds' in i ? i.articleIds : []
		)
	);
	const db = await openReaderDb();
	const tx = db.transaction(['articles', 'tree'], 'readonly');
	const articles = new Map<number, string>();
	for (const id of ids) {
		const article = await tx.objectStore('articles').get(id);
		if (article?.title) articles.set(id, article.title);
	}
	const tree = (await tx.objectStore('tree').get('current'))?.tree;
	await tx.done;
	return { articles, titles: titlesOf(tree) };
}

/** Changes submitted here that are on screen already but not yet committed to the outbox. */
const beingQueued = new Set<Intent>();

/**
 * Marks an intent as on its way into the outbox: the screen shows it from now on, and a server
 * answer that arrives before it is queued must not take it back (`withQueuedChanges`). Returns the
 * function that ends the mark, once the intent is queued or refused.
 */
export function markBeingQueued(intent: Intent): () => void {
	beingQueued.add(intent);
	return () => beingQueued.delete(intent);
}

/**
 * The reader's changes a server answer asked for at `readAt` may not show: those the server
 * confirmed since (the sent log), those queued or held, and those being queued here, oldest first.
 */
async function changesNotShown(
	readAt: number | undefined,
	withTree: boolean
): Promise<{ intents: Intent[]; tree: FeedTree | undefined }> {
	// Taken before the outbox is read: an intent queued meanwhile is in one or the other.
	const queuing = [...beingQueued];
	const db = await openReaderDb();
	const tx = db.transaction(['outbox', 'tree', 'settings'], 'readonly');
	const settings = tx.objectStore('settings');
	const owner = (await settings.get(CACHE_OWNER_KEY)) as string | undefined;
	const { changes } = await changesNotIn(
		{ settings, outbox: tx.objectStore('outbox') },
		owner,
		readAt
	);
	const intents = [...changes.map((c) => c.intent), ...queuing];
	const tree =
		withTree && intents.length > 0
			? (await tx.objectStore('tree').get('current'))?.tree
			: undefined;
	await tx.done;
	return { intents, tree };
}

/**
 * Rows (or an opened article) from the server as the reader's changes leave them, by the rule the
 * cache applies when it stores them: a change still waiting (or held for an Undo, or being
 * queued) must not be undone on screen by an answer the server gave before the change was sent.
 */
export async function withQueuedChanges<T extends ArticleBase>(
	rows: readonly T[],
	/** When the rows were asked for: changes the server confirmed since are applied too. */
	readAt?: number
): Promise<T[]> {
	try {
		const { intents, tree } = await changesNotShown(readAt, true);
		if (intents.length === 0) return [...rows];
		return rows.map((row) => {
			const copy: T = { ...row, labels: [...row.labels] };
			for (const intent of intents) applyToArticle(copy, intent, tree);
			return copy;
		});
	} catch {
		// Unreadable: the server's rows as they are.
		return [...rows];
	}
}

/**
 * The server's counters as the reader's catch-ups not in them leave them (queued, held, being
 * queued, or confirmed after `readAt`): zero, as when the catch-up was queued. A single article's
 * read change is not applied: whether the server counted it is not known here; the counters are
 * read again once the outbox is empty.
 */
export async function withQueuedCounters(
	counters: Counters,
	tree: FeedTree | undefined,
	readAt?: number
): Promise<Counters> {
	try {
		const { intents } = await changesNotShown(readAt, false);
		const catchups = intents.filter((i): i is CatchupIntent => i.type === 'catchup');
		if (catchups.length === 0) return counters;
		const copy = structuredClone(counters);
		for (const intent of catchups) applyCatchupToCounters(copy, tree, intent);
		return copy;
	} catch {
		return counters;
	}
}

export async function pendingItems(): Promise<OutboxItem[]> {
	const db = await openReaderDb();
	return db.getAll('outbox');
}

export async function pendingCount(): Promise<number> {
	const db = await openReaderDb();
	return db.count('outbox');
}

export async function failedItems(): Promise<FailedItem[]> {
	const db = await openReaderDb();
	return db.getAll('failed');
}

/** Puts a failed item back at the end of the outbox (unless a newer change replaced it). */
export async function retryFailed(id: number, now = Date.now()): Promise<void> {
	const db = await openReaderDb();
	const tx = db.transaction(['failed', 'outbox'], 'readwrite');
	const failed = await tx.objectStore('failed').get(id);
	if (failed) {
		await tx.objectStore('failed').delete(id);
		const newer = (await tx.objectStore('outbox').index('byKey').getAll(failed.key)).filter(
			(item) => item.account === failed.account
		);
		if (newer.length === 0) {
			const item: OutboxItem = {
				key: failed.key,
				intent: failed.intent,
				createdAt: now,
				attempts: 0,
				...(failed.articleId !== undefined ? { articleId: failed.articleId } : {}),
				...(failed.account !== undefined ? { account: failed.account } : {}),
				// A failed share or catch-up may have reached the server on an earlier try: it is
				// checked (share) or bounded (catch-up) again, as for any attempted item (replay.ts).
				...(failed.intent.type === 'share' || failed.intent.type === 'catchup'
					? { attemptedAt: failed.failedAt }
					: {})
			};
			await tx.objectStore('outbox').add(item);
		}
	}
	await tx.done;
	announceOutboxChange();
}

/**
 * Drops a failed item. Its article's cached copy showed the change the server refused, so that
 * copy is dropped too: the next visit loads the server's state.
 */
export async function discardFailed(id: number): Promise<void> {
	const db = await openReaderDb();
	const tx = db.transaction(['failed', 'articles'], 'readwrite');
	const failed = await tx.objectStore('failed').get(id);
	if (failed) {
		await tx.objectStore('failed').delete(id);
		if (failed.articleId !== undefined) await tx.objectStore('articles').delete(failed.articleId);
	}
	await tx.done;
	announceOutboxChange();
}
