/**
 * The outbox in IndexedDB: enqueue (coalesced, applied to the cache in the same transaction) and
 * the pending and failed lists; every change is announced to all tabs and the worker (broadcast.ts).
 */
import type { IDBPTransaction } from 'idb';
import { openReaderDb, type ReaderDatabase } from '$lib/db/open';
import type { FailedItem, OutboxItem, ReaderDB, StoredArticle, StoredTree } from '$lib/db/schema';
import { RefusedError, type ArticleBase, type Counters, type FeedTree } from '$lib/api';
import { CACHE_OWNER } from '$lib/db/keys';
import { getStored, isFiniteNumber, readIn, storedKeyFamily, writeIn } from '$lib/db/kv';
import { readTx, writeTx, writeTxWithRoom } from '$lib/db/tx';
import { accountOfNewChanges } from '$lib/db/session';
import {
	CATCHUP_KEY_PREFIX,
	applyCatchupToCounters,
	applyToArticle,
	inCatchupScope,
	laterThanCatchups,
	splitIntent,
	type ItemDraft
} from './apply';
import { intentEffect, type IntentEffect, type WayInSnapshot } from './way-in';
import { changesNotIn, type NotShown } from './sent-log';
import { noteHeldSeqs, type Hold } from './hold';
import { titlesOf } from '$lib/tree/walk';
import { announceOutboxChange } from './broadcast';
import type { Intent, IntentNames, CatchupIntent } from './intent';

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
export async function enqueueIntent(
	intent: Intent,
	now = Date.now(),
	hold?: Hold,
	ahead: WrittenAhead = {}
): Promise<void> {
	const db = await openReaderDb();
	const account = ahead.account ?? (await accountOfNewChanges());
	const drafts = splitIntent(
		intent.type === 'catchup' ? await withVisibleBound(db, intent, account) : intent,
		now
	);
	const write = { drafts, now, account, hold, journal: ahead.journal };
	let seqs: number[];
	try {
		seqs = await writeItems(db, write, true);
	} catch {
		seqs = await writeItems(db, write, false);
	}
	if (hold) noteHeldSeqs(hold.id, seqs);
	announceOutboxChange();
}

/** A change the page wrote ahead (state/write-ahead.ts): its entry's id and account. */
export interface WrittenAhead {
	journal?: string;
	account?: string;
}

/**
 * A write-ahead entry whose change is in the outbox: written in the outbox's own transaction, so
 * a start that finds the entry knows whether to queue it again (state/write-ahead.ts).
 */
export const journalSettled = storedKeyFamily<number>({
	store: 'settings',
	prefix: 'journal-settled:',
	owner: 'outbox/outbox.ts',
	parse: isFiniteNumber,
	fallback: () => 0
});

/** The settled marks of write-ahead entries by id (0 = none). */
export async function settledEntries(ids: readonly string[]): Promise<Set<string>> {
	const db = await openReaderDb();
	return readTx(db, ['settings'], async (tx) => {
		const settled = new Set<string>();
		for (const id of ids) {
			if ((await readIn(tx.objectStore('settings'), journalSettled(id))) > 0) settled.add(id);
		}
		return settled;
	});
}

/**
 * Deletes the settled marks of entries no page keeps any more (all but `kept`), once older than
 * ten minutes: a page that wrote its entry after `kept` was read still finds its mark.
 */
export async function forgetSettledEntries(
	kept: ReadonlySet<string>,
	now = Date.now()
): Promise<void> {
	const db = await openReaderDb();
	const prefix = journalSettled('').name;
	await writeTx(db, ['settings'], async (tx) => {
		const store = tx.objectStore('settings');
		const range = IDBKeyRange.bound(prefix, prefix + '\uffff');
		for (const key of await store.getAllKeys(range)) {
			const id = String(key).slice(prefix.length);
			if (kept.has(id)) continue;
			if (now - (await readIn(store, journalSettled(id))) > SETTLED_KEPT) await store.delete(key);
		}
	});
}

const SETTLED_KEPT = 10 * 60_000;

interface ItemsWrite {
	drafts: ItemDraft[];
	now: number;
	/** The account the change was made in: only its session ever sends it. */
	account: string | undefined;
	hold: Hold | undefined;
	journal: string | undefined;
}

async function writeItems(
	db: ReaderDatabase,
	{ drafts, now, account, hold, journal }: ItemsWrite,
	applyToCache: boolean
): Promise<number[]> {
	const context = { now, account, hold };
	if (!applyToCache) {
		return writeTx(db, ['outbox', 'settings'], async (tx) => {
			const queued = await queuedUnder(tx.objectStore('outbox'), drafts);
			if (journal) await writeIn(tx.objectStore('settings'), journalSettled(journal), now);
			return writeEffect(tx, intentEffect(drafts, queued, context));
		});
	}
	// A full quota frees cache room first (then the caller keeps the change in the outbox alone).
	return writeTxWithRoom(db, ['outbox', 'articles', 'tree', 'settings'], async (tx) => {
		if (journal) await writeIn(tx.objectStore('settings'), journalSettled(journal), now);
		// A tab left open for an earlier account queues its change for that account; the cache is
		// another account's now (the same ids name other articles there): it stays as it is.
		const owner = await readIn(tx.objectStore('settings'), CACHE_OWNER);
		const ownCache = account === undefined || owner === undefined || owner === account;
		const queued = await queuedUnder(tx.objectStore('outbox'), drafts);
		const cache = ownCache ? await cacheSnapshot(tx, drafts) : undefined;
		const effect = intentEffect(drafts, { ...queued, cache }, context);
		for (const article of effect.articles) await tx.objectStore('articles').put(article);
		if (effect.tree) await tx.objectStore('tree').put(effect.tree, 'current');
		return writeEffect(tx, effect);
	});
}

/**
 * The queued items under each draft's key (what its item may replace) and, when there are any,
 * the queued catch-ups (a change is not moved past one whose scope it changes). Reads only these,
 * by the `byKey` index: a tap costs the same with ten or ten thousand changes queued.
 */
export async function queuedUnder(
	outbox: {
		index(name: 'byKey'): { getAll(key: string | IDBKeyRange): Promise<OutboxItem[]> };
	},
	drafts: readonly ItemDraft[]
): Promise<Pick<WayInSnapshot, 'queued' | 'catchups'>> {
	const byKey = outbox.index('byKey');
	const queued = await Promise.all(drafts.map((draft) => byKey.getAll(draft.key)));
	if (queued.every((q) => q.length === 0)) return { queued };
	const catchups = (await byKey.getAll(catchupKeys()))
		.filter((item) => item.intent.type === 'catchup')
		.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
	return { queued, catchups };
}

/** The keys of every queued catch-up (apply.ts `splitIntent` names them so). */
function catchupKeys(): IDBKeyRange {
	return IDBKeyRange.bound(CATCHUP_KEY_PREFIX, `${CATCHUP_KEY_PREFIX}\uffff`);
}

/** The stored tree and, for each draft, the cached articles it may change. */
async function cacheSnapshot(
	tx: CacheTx,
	drafts: readonly ItemDraft[]
): Promise<NonNullable<WayInSnapshot['cache']>> {
	const tree: StoredTree | undefined = await tx.objectStore('tree').get('current');
	const articles = tx.objectStore('articles');
	const targets: StoredArticle[][] = [];
	for (const { articleId, intent } of drafts) {
		if (articleId !== undefined) {
			const article = await articles.get(articleId);
			targets.push(article ? [article] : []);
		} else {
			targets.push(intent.type === 'catchup' ? await articlesForCatchup(articles, intent) : []);
		}
	}
	return { tree, targets };
}

/**
 * The outbox's part of an intent's effect: the replaced items out, the new ones in. Returns the
 * new items' seqs.
 */
async function writeEffect(
	tx: { objectStore(name: 'outbox'): OutboxWrites },
	effect: IntentEffect
): Promise<number[]> {
	const outbox = tx.objectStore('outbox');
	for (const seq of effect.replaced) await outbox.delete(seq);
	const seqs: number[] = [];
	for (const item of effect.items) seqs.push(await outbox.add(item));
	return seqs;
}

interface OutboxWrites {
	delete(seq: number): Promise<void>;
	add(item: OutboxItem): Promise<number>;
}

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
		maxId = await readTx(db, ['articles', 'tree'], async (tx) => {
			let bound = intent.maxId;
			const tree = (await tx.objectStore('tree').get('current'))?.tree;
			for (const article of await articlesForCatchup(tx.objectStore('articles'), intent)) {
				if (inCatchupScope(intent, article, tree) && (bound === undefined || article.id > bound)) {
					bound = article.id;
				}
			}
			if (bound === undefined) {
				const newest = await tx.objectStore('articles').openKeyCursor(null, 'prev');
				if (newest) bound = newest.key;
			}
			return bound;
		});
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
		const owner = await getStored(CACHE_OWNER, db);
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
	return readTx(db, ['articles', 'tree'], async (tx) => {
		const articles = new Map<number, string>();
		for (const id of ids) {
			const article = await tx.objectStore('articles').get(id);
			if (article?.title) articles.set(id, article.title);
		}
		const tree = (await tx.objectStore('tree').get('current'))?.tree;
		return { articles, titles: titlesOf(tree) };
	});
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
): Promise<{ changes: NotShown[]; tree: FeedTree | undefined }> {
	// Taken before the outbox is read: an intent queued meanwhile is in one or the other.
	const queuing = [...beingQueued];
	const db = await openReaderDb();
	return readTx(db, ['outbox', 'tree', 'settings'], async (tx) => {
		const settings = tx.objectStore('settings');
		const owner = await readIn(settings, CACHE_OWNER);
		const { changes } = await changesNotIn(
			{ settings, outbox: tx.objectStore('outbox') },
			owner,
			readAt
		);
		const all: NotShown[] = [...changes, ...queuing.map((intent) => ({ intent }))];
		const tree =
			withTree && all.length > 0 ? (await tx.objectStore('tree').get('current'))?.tree : undefined;
		return { changes: all, tree };
	});
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
		const { changes, tree } = await changesNotShown(readAt, true);
		if (changes.length === 0) return [...rows];
		const later = laterThanCatchups(changes);
		return rows.map((row) => {
			const copy: T = { ...row, labels: [...row.labels] };
			for (const [index, { intent }] of changes.entries()) {
				applyToArticle(copy, intent, tree, later[index]);
			}
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
		const { changes } = await changesNotShown(readAt, false);
		const catchups = changes
			.map((c) => c.intent)
			.filter((i): i is CatchupIntent => i.type === 'catchup');
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
	await writeTx(db, ['failed', 'outbox'], async (tx) => {
		const failed = await tx.objectStore('failed').get(id);
		if (!failed) return;
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
	});
	announceOutboxChange();
}

/**
 * Drops a failed item. Its article's cached copy showed the change the server refused, so that
 * copy is dropped too: the next visit loads the server's state.
 */
export async function discardFailed(id: number): Promise<void> {
	const db = await openReaderDb();
	await writeTx(db, ['failed', 'articles'], async (tx) => {
		const failed = await tx.objectStore('failed').get(id);
		if (!failed) return;
		await tx.objectStore('failed').delete(id);
		if (failed.articleId !== undefined) await tx.objectStore('articles').delete(failed.articleId);
	});
	announceOutboxChange();
}
