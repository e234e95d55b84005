/**
 * The reader's own writes to the outbox: a change queued (coalesced, applied to the cache in the
 * same transaction), a failed one put back or dropped. Apart from outbox.ts (the reads every screen
 * makes: pending, failed, and rows as the queued changes leave them), so the first screen's code
 * does not carry them; a page loads this module with its first change (state/actions.ts, after
 * the first screen).
 */
import type { OutboxItem, StoredArticle, StoredTree } from '$lib/db/schema';
import { RefusedError } from '$lib/api';
import { CACHE_OWNER } from '$lib/db/keys';
import { getStored, isFiniteNumber, readIn, storedKeyFamily, writeIn } from '$lib/db/kv';
import { unansweredSendsFor } from './unanswered-sends';
import { isQuotaError, StorageFullError } from '$lib/db/storage-problem';
import { m } from '$lib/i18n/m';
import { readStores, writeStores, type Stores } from '$lib/db/stores';
import { writeStoresWithRoom } from '$lib/db/quota';
import { accountOfNewChanges } from '$lib/db/session';
import { changeFitsCache } from '$lib/db/account';
import { inCatchupScope } from './apply';
import { catchupKeyRange, keyPrefixRange, splitIntent, type ItemDraft } from './split';
import {
	intentEffect,
	type IntentEffect,
	type EffectContext,
	type EffectSnapshot
} from './intent-effect';
import { noteHeldSeqs, type Hold } from './hold';
import { announceOutboxChange } from './broadcast';
import { marksUnread, type Intent, type CatchupIntent } from './intent';
type QueueStores = Stores<('outbox' | 'settings')[], 'readwrite'>;
type CacheStores = Stores<('outbox' | 'articles' | 'tree' | 'settings')[], 'readwrite'>;

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
	ahead: WrittenAhead = {},
	by: EffectContext['by'] = 'reader'
): Promise<void> {
	const account = ahead.account ?? (await accountOfNewChanges());
	const drafts = splitIntent(
		intent.type === 'catchup' ? await withVisibleBound(intent, account) : intent,
		now
	);
	const write: ItemsWrite = { drafts, now, account, hold, journal: ahead.journal, by };
	let seqs: number[];
	try {
		seqs = await writeItems(write, true);
	} catch (error) {
		// A rule's change is checked against the cached articles (intent-effect.ts `changedByReader`):
		// without them it is not made (its articles stay considered: rules/after-sync.ts).
		if (by === 'rule') throw error;
		seqs = await writeItems(write, false).catch((error: unknown) => {
			// Not even the change alone fits: the reader is told it was not made, and why (a full
			// device, not "try again in a moment"; chaos seed 5000002).
			throw isQuotaError(error) ? new StorageFullError(error, m.failure_change_no_room()) : error;
		});
	}
	if (hold) noteHeldSeqs(hold.id, seqs);
	announceOutboxChange();
}

/**
 * A change one of the reader's rules makes (rules/after-sync.ts): as the reader's, except that it leaves
 * out every article the reader changed since it reached the device (intent-effect.ts `changedByReader`),
 * checked in the transaction that writes it, and marks none as the reader's.
 */
export async function enqueueRuleIntent(intent: Intent, now = Date.now()): Promise<void> {
	await enqueueIntent(intent, now, undefined, {}, 'rule');
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
	owner: 'outbox/enqueue.ts',
	parse: isFiniteNumber,
	fallback: () => 0
});

/** The settled marks of write-ahead entries by id (0 = none). */
export async function settledEntries(ids: readonly string[]): Promise<Set<string>> {
	return readStores(['settings'], async ({ settings }) => {
		const settled = new Set<string>();
		for (const id of ids) {
			if ((await readIn(settings, journalSettled(id))) > 0) settled.add(id);
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
	const prefix = journalSettled('').name;
	await writeStores(['settings'], async ({ settings: store }) => {
		for (const key of await store.getAllKeys(keyPrefixRange(prefix))) {
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
	/** The reader's change, or a rule's (intent-effect.ts `EffectContext`). */
	by: EffectContext['by'];
}

/**
 * The change's way into the queue, in one transaction: the write-ahead entry marked settled, what
 * the change meets (the queued items of its keys, the unanswered sends of them and, with `applyToCache`, the
 * cached articles and counters it changes), the pure rule (intent-effect.ts `intentEffect`), its writes.
 * Without the cache, only the outbox and its marks are written.
 */
async function writeItems(write: ItemsWrite, applyToCache: boolean): Promise<number[]> {
	if (!applyToCache) {
		return writeStores(['outbox', 'settings'], (stores) => enter(stores, undefined, write));
	}
	// A full quota frees cache room first (then the caller keeps the change in the outbox alone).
	return writeStoresWithRoom(['outbox', 'articles', 'tree', 'settings'], (stores) =>
		enter(stores, stores, write)
	);
}

async function enter(
	{ outbox, settings }: QueueStores,
	cacheStores: CacheStores | undefined,
	{ drafts, now, account, hold, journal, by }: ItemsWrite
): Promise<number[]> {
	if (journal) await writeIn(settings, journalSettled(journal), now);
	const queued = await queuedUnder(outbox, drafts);
	const unanswered = await unansweredSendsFor(settings, account, keysOf(drafts), now);
	// A tab left open for an earlier account queues its change for that account; the cache is
	// another account's now (the same ids name other articles there): it stays as it is.
	const ownCache =
		cacheStores !== undefined && changeFitsCache(await readIn(settings, CACHE_OWNER), account);
	const cache = ownCache ? await cacheSnapshot(cacheStores, drafts) : undefined;
	const effect = intentEffect(drafts, { ...queued, unanswered, cache }, { now, account, hold, by });
	if (cacheStores) {
		for (const article of effect.articles) await cacheStores.articles.put(article);
		if (effect.tree) await cacheStores.tree.put(effect.tree, 'current');
	}
	return writeEffect(outbox, effect);
}

const keysOf = (drafts: readonly ItemDraft[]): string[] => drafts.map((d) => d.key);

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
): Promise<Pick<EffectSnapshot, 'queued' | 'catchups'>> {
	const byKey = outbox.index('byKey');
	const queued = await Promise.all(drafts.map((draft) => byKey.getAll(draft.key)));
	// A mark unread needs them too: one sent without an answer yet may land after it (intent-effect.ts).
	if (queued.every((q) => q.length === 0) && !drafts.some((d) => marksUnread(d.intent))) {
		return { queued };
	}
	const catchups = (await byKey.getAll(catchupKeyRange()))
		.filter((item) => item.intent.type === 'catchup')
		.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
	return { queued, catchups };
}

/** The stored tree and, for each draft, the cached articles it may change. */
async function cacheSnapshot(
	stores: CacheStores,
	drafts: readonly ItemDraft[]
): Promise<NonNullable<EffectSnapshot['cache']>> {
	const tree: StoredTree | undefined = await stores.tree.get('current');
	const articles = stores.articles;
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
async function writeEffect(outbox: OutboxWrites, effect: IntentEffect): Promise<number[]> {
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
	intent: CatchupIntent,
	account: string | undefined
): Promise<CatchupIntent> {
	if (account !== undefined && !(await cacheIsOf(account))) {
		if (intent.maxId !== undefined) return intent;
		throw new RefusedError(STALE_TAB);
	}
	let maxId = intent.maxId;
	try {
		maxId = await readStores(['articles', 'tree'], async (stores) => {
			let bound = intent.maxId;
			const tree = (await stores.tree.get('current'))?.tree;
			for (const article of await articlesForCatchup(stores.articles, intent)) {
				if (inCatchupScope(intent, article, tree) && (bound === undefined || article.id > bound)) {
					bound = article.id;
				}
			}
			if (bound === undefined) {
				const newest = await stores.articles.openKeyCursor(null, 'prev');
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
async function cacheIsOf(account: string): Promise<boolean> {
	try {
		return changeFitsCache(await getStored(CACHE_OWNER), account);
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
/** Puts a failed item back at the end of the outbox (unless a newer change replaced it). */
export async function retryFailed(id: number, now = Date.now()): Promise<void> {
	await writeStores(['failed', 'outbox'], async (stores) => {
		const failed = await stores.failed.get(id);
		if (!failed) return;
		await stores.failed.delete(id);
		const newer = (await stores.outbox.index('byKey').getAll(failed.key)).filter(
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
			await stores.outbox.add(item);
		}
	});
	announceOutboxChange();
}

/**
 * Drops a failed item. Its article's cached copy showed the change the server refused, so that
 * copy is dropped too: the next visit loads the server's state.
 */
export async function discardFailed(id: number): Promise<void> {
	await writeStores(['failed', 'articles'], async (stores) => {
		const failed = await stores.failed.get(id);
		if (!failed) return;
		await stores.failed.delete(id);
		if (failed.articleId !== undefined) await stores.articles.delete(failed.articleId);
	});
	announceOutboxChange();
}
