/**
 * An intent's way in, as one pure rule: from the intent's items (apply.ts `splitIntent`) and a
 * snapshot of what they touch (the cached articles and counters, the queued items of the same
 * keys), the whole of what enqueueing it changes: the items to add and those they replace
 * (coalesced), the cached articles as they are after it, the counters moved (counters/counts.ts,
 * through apply.ts), and, for a held change, what undoing it puts back (hold.ts `HoldUndo`). The
 * outbox (outbox.ts `enqueueIntent`) reads the snapshot and writes the effect in one transaction;
 * nothing here reads or writes storage, and the snapshot is left as it was.
 */
import type { OutboxItem, StoredArticle, StoredTree } from '$lib/db/schema';
import { adjustCounters, applyCatchupToCounters, applyToArticle } from './apply';
import { changedCounters, counterValues } from './hold';
import { inverseOf, type Hold, type HoldUndo } from './hold-note';
import { mustStayBefore } from './order';
import { hasNow, type ItemDraft } from './split';
import { marksUnread, type Intent } from './intent';

export interface EffectSnapshot {
	/**
	 * The cache, when the change is to be applied to it (it is the account's own and writable):
	 * the stored tree with its counters, and for each draft (by index) the cached articles it may
	 * change: its article, or a catch-up's candidates.
	 */
	cache?:
		| {
				tree: StoredTree | undefined;
				targets: readonly (readonly StoredArticle[])[];
		  }
		| undefined;
	/** For each draft (by index), the queued items under its key (any account's). */
	queued: readonly (readonly OutboxItem[])[];
	/** The queued catch-ups, when an item may be replaced (a change is not moved past one). */
	catchups?: readonly OutboxItem[];
	/**
	 * For each draft (by index), the time of a send of its key that left the outbox confirmed but
	 * may still land (outbox/unanswered-sends.ts), in the change's account.
	 */
	unanswered?: readonly (number | undefined)[];
}

export interface EffectContext {
	now: number;
	/** The account the change was made in: only its session ever sends it. */
	account: string | undefined;
	hold?: Hold | undefined;
	/**
	 * Who made the change: the reader (the default) or one of the reader's rules (rules/after-sync.ts).
	 * The reader's change marks each cached article it changes (`readerChangedAt`); a rule's
	 * leaves out every article so marked (`changedByReader`).
	 */
	by?: 'reader' | 'rule';
}

/**
 * Whether the reader has changed this cached article since it reached the device: read, kept
 * unread, starred, labelled, caught up… A rule never acts on such an article, whatever it
 * matched: the reader's word is the last (else: a list brought an article in before the
 * sync, the reader opened it and kept it unread, and a "mark read" rule marked it read).
 */
export function changedByReader(article: Pick<StoredArticle, 'readerChangedAt'>): boolean {
	return article.readerChangedAt !== undefined;
}

/** A rule's drafts without those that would change an article the reader changed. */
function leftToRule(
	drafts: readonly ItemDraft[],
	snapshot: EffectSnapshot
): { drafts: ItemDraft[]; snapshot: EffectSnapshot } {
	const cache = snapshot.cache;
	const keep = drafts.map((_, i) => !(cache?.targets[i] ?? []).some(changedByReader));
	const kept = <T>(list: readonly T[]): T[] => list.filter((_, i) => keep[i]);
	return {
		drafts: kept(drafts),
		snapshot: {
			...snapshot,
			queued: kept(snapshot.queued),
			...(snapshot.unanswered ? { unanswered: kept(snapshot.unanswered) } : {}),
			...(cache ? { cache: { ...cache, targets: kept(cache.targets) } } : {})
		}
	};
}

export interface IntentEffect {
	/** The `seq`s of the older queued items the new ones replace. */
	replaced: number[];
	/** The items to queue, in order. */
	items: OutboxItem[];
	/** The cached articles the intent changed, as they are after it. */
	articles: StoredArticle[];
	/** The stored tree with the counters moved, when they moved. */
	tree: StoredTree | undefined;
}

export function intentEffect(
	allDrafts: readonly ItemDraft[],
	allSnapshot: EffectSnapshot,
	{ now, account, hold, by = 'reader' }: EffectContext
): IntentEffect {
	const { drafts, snapshot } =
		by === 'rule'
			? leftToRule(allDrafts, allSnapshot)
			: { drafts: allDrafts, snapshot: allSnapshot };
	const undo: HoldUndo[] | undefined = hold ? drafts.map(() => ({ replaced: [] })) : undefined;
	const changed = snapshot.cache
		? applyToCache(drafts, snapshot.cache, undo, by === 'reader' ? now : undefined)
		: undefined;
	const replaced: number[] = [];
	const items = drafts.map((draft, index): OutboxItem => {
		// Coalesce: the last intent for a key wins; it takes the newest place in the queue. Only
		// within one account: the same article id in another account is another article. A held
		// change keeps what it replaced: undoing it puts that back. Not past a catch-up whose
		// scope it can change (unstar, catch up Starred, star again): the older one keeps its
		// place, so the catch-up is sent over the state the reader saw (order.ts).
		// A replaced change sent without an answer may still land after this one: this one is
		// then sent once more after it is confirmed (replay-records.ts `confirm`).
		let overtakes: number | undefined;
		for (const older of snapshot.queued[index] ?? []) {
			if (older.seq === undefined || older.account !== account) continue;
			if (snapshot.catchups?.some((c) => mustStayBefore(older, c))) continue;
			replaced.push(older.seq);
			undo?.[index]?.replaced.push(older);
			const doubt = unansweredAt(older);
			if (doubt !== undefined) overtakes = Math.max(overtakes ?? doubt, doubt);
		}
		// A mark unread queued behind a catch-up that was sent without an answer yet: that send may
		// land after this one is confirmed and mark the article read again (soak seed 969868044).
		const late = catchupMayLand(draft.intent, snapshot.catchups, account);
		if (late !== undefined) overtakes = Math.max(overtakes ?? late, late);
		// A send of this key already confirmed, whose earlier unanswered send may still land.
		const gone = snapshot.unanswered?.[index];
		if (gone !== undefined) overtakes = Math.max(overtakes ?? gone, gone);
		const was = changed?.was[index];
		return {
			key: draft.key,
			intent: draft.intent,
			createdAt: now,
			attempts: 0,
			...(overtakes !== undefined ? { overtakes } : {}),
			...(draft.articleId !== undefined ? { articleId: draft.articleId } : {}),
			...(was !== undefined ? { was } : {}),
			...(account !== undefined ? { account } : {}),
			...(hold ? { heldUntil: hold.until, undoId: hold.id, undo: undo?.[index] } : {})
		};
	});
	return {
		replaced,
		items,
		articles: changed?.articles ?? [],
		tree: changed?.tree
	};
}

/**
 * When a queued catch-up of the account was last sent (it is noted before each send, and leaves the
 * outbox once answered): the time a mark unread queued behind it must let pass before its last send
 * (undefined: no catch-up of it was sent, or the intent is not a mark unread).
 */
function catchupMayLand(
	intent: Intent,
	catchups: readonly OutboxItem[] | undefined,
	account: string | undefined
): number | undefined {
	if (!marksUnread(intent)) return undefined;
	return latest(...(catchups ?? []).filter((c) => c.account === account).map((c) => c.attemptedAt));
}

/** The latest of the known times (undefined: none known). */
export function latest(...times: (number | undefined)[]): number | undefined {
	const known = times.filter((t) => t !== undefined);
	return known.length > 0 ? Math.max(...known) : undefined;
}

/**
 * When a queued change of an article was last sent without an answer (or is being sent, or was
 * when its sender died), or the unanswered send an earlier one it replaced may still be
 * (undefined: nothing of it can still be on its way).
 */
export function unansweredAt(item: OutboxItem): number | undefined {
	if (item.intent.type === 'catchup' || item.intent.type === 'share') return undefined;
	return latest(item.attemptedAt, item.overtakes, item.sendingAt);
}

/**
 * Applies the drafts to copies of the cached articles and counters; notes in `undo` what undoing
 * puts back; a reader's change (`readerAt`, its time) marks the articles it changes.
 */
function applyToCache(
	drafts: readonly ItemDraft[],
	cache: NonNullable<EffectSnapshot['cache']>,
	undo: HoldUndo[] | undefined,
	readerAt: number | undefined
): {
	articles: StoredArticle[];
	tree: StoredTree | undefined;
	/** For each draft (by index): what its article had before it (OutboxItem `was`). */
	was: (boolean | undefined)[];
} {
	const stored = cache.tree;
	const counters = stored?.counters ? structuredClone(stored.counters) : undefined;
	const tree = stored?.tree;
	// One copy an article, however many drafts reach it; the fields an intent sets are replaced,
	// never changed inside, so a shallow copy leaves the snapshot's as it was.
	const copies = new Map<number, StoredArticle>();
	const written = new Set<StoredArticle>();
	let countersChanged = false;
	const was: (boolean | undefined)[] = [];
	for (const [index, draft] of drafts.entries()) {
		const intent = draft.intent;
		const record = undo?.[index];
		for (const found of cache.targets[index] ?? []) {
			const article = copies.get(found.id) ?? { ...found };
			copies.set(found.id, article);
			if (record && draft.articleId !== undefined) record.inverse = inverseOf(intent, article);
			if (draft.articleId !== undefined) was[index] = hasNow(intent, article);
			const delta = applyToArticle(article, intent, tree);
			// An article's own change is written; a catch-up writes only the articles it marked read.
			if (draft.articleId !== undefined || delta !== 0) written.add(article);
			if (delta !== 0) {
				adjustCounters(counters, tree, article, delta);
				countersChanged = true;
				if (record && intent.type === 'catchup') (record.markedRead ??= []).push(article.id);
			}
		}
		if (intent.type === 'catchup') {
			const before = record ? counterValues(counters) : [];
			applyCatchupToCounters(counters, tree, intent);
			if (record) record.counters = changedCounters(before, counters);
			countersChanged = true;
		}
	}
	if (readerAt !== undefined) for (const article of written) article.readerChangedAt = readerAt;
	return {
		articles: [...written],
		tree: stored && countersChanged ? { ...stored, counters } : undefined,
		was
	};
}
