/**
 * Holding a change while the reader can still undo it, so an undone change is never sent. An undoable action's items are
 * queued with `heldUntil` and one `undoId` (enqueueIntent's `hold`); replay leaves them, and what
 * must not overtake them (replay.ts `planCalls`), until the hold is
 * - released (the Undo toast went away): sent as any change;
 * - expired (the page died or went away before releasing it): any replay, the worker's too, sends
 *   it, so a hold never outlives its toast and a change is never lost;
 * - cancelled (Undo): its items leave the outbox unsent, the older queued changes they replaced
 *   (coalesced) come back to their place in the queue, and the cached articles and counters are
 *   put back as they were, except what the reader changed since.
 *
 * The API (helpers calling it: see state/undo.svelte.ts for the page's side):
 *   enqueueIntent(intent, now, { id, until })   outbox.ts: queue held
 *   releaseHold(id)                             commit: send it now
 *   cancelHold(id, now)                         undo: undefined when too late (sent or sending)
 */
import type { Counters, FeedTree } from '$lib/api';
import type { OutboxItem, StoredArticle } from '$lib/db/schema';
import { writeStores, type Stores } from '$lib/db/stores';
import { changeFitsCache } from '$lib/db/account';
import { CACHE_OWNER } from '$lib/db/keys';
import { readIn } from '$lib/db/kv';
import { adjustCounters, applyCatchupToCounters, applyToArticle, catchupCovers } from './apply';
import type { Intent, CatchupIntent } from './intent';
import { announceOutboxChange } from './broadcast';
import { mustStayBefore } from './order';
import { unreadKey } from './split';
import { isHeld, type CounterList, type CounterValue } from './hold-note';

// Those who hold, undo or store a hold name its types here, with its functions.
export type { CounterValue, Hold, HoldUndo } from './hold-note';

const LISTS: readonly CounterList[] = ['feeds', 'special', 'labels', 'categories'];

/** The counters' unread values, to compare after a catch-up moved some. */
export function counterValues(counters: Counters | undefined): CounterValue[] {
	if (!counters) return [];
	const values: CounterValue[] = LISTS.flatMap((list) =>
		counters[list].map((c) => ({ list, id: c.id, unread: c.unread }))
	);
	if (counters.globalUnread !== undefined) {
		values.push({ list: 'global', id: 0, unread: counters.globalUnread });
	}
	return values;
}

/** The values of `before` that differ in `counters` now. */
export function changedCounters(
	before: readonly CounterValue[],
	counters: Counters | undefined
): CounterValue[] {
	const now = new Map(counterValues(counters).map((c) => [`${c.list}:${c.id}`, c.unread]));
	return before.filter((c) => now.get(`${c.list}:${c.id}`) !== c.unread);
}

function restoreCounters(counters: Counters | undefined, values: readonly CounterValue[]): void {
	if (!counters) return;
	for (const value of values) {
		if (value.list === 'global') counters.globalUnread = value.unread;
		else for (const c of counters[value.list]) if (c.id === value.id) c.unread = value.unread;
	}
}

/** Drops a cancelled hold's items from a replaced list, putting back what they replaced. */
function withoutHold(list: readonly OutboxItem[], undoId: string): OutboxItem[] {
	return list.flatMap((item) =>
		item.undoId === undoId ? withoutHold(item.undo?.replaced ?? [], undoId) : [item]
	);
}

/** The item as a change sent like any other: no longer held, nothing to undo (its undoId stays:
 * an Undo of it then finds it too late). */
function withoutHoldOf(item: OutboxItem): OutboxItem {
	const released = { ...item };
	delete released.heldUntil;
	delete released.undo;
	return released;
}

/**
 * The outbox seqs each hold of this page (or worker) was queued under, noted by enqueueIntent once
 * committed. A hold's items keep their seqs (a replaced one leaves, a put-back one returns with its
 * own), so its release reads just these; a hold queued in another context is found by a full read.
 */
const heldSeqs = new Map<string, number[]>();

export function noteHeldSeqs(undoId: string, seqs: readonly number[]): void {
	if (seqs.length > 0)
		heldSeqs.set(undoId, [...new Set([...(heldSeqs.get(undoId) ?? []), ...seqs])]);
}

/**
 * Sends a held change now (its toast went away): it stays queued, no longer held. A tap's release
 * reads its own items, not the whole queue.
 */
export async function releaseHold(undoId: string): Promise<number> {
	const released = await writeStores(['outbox'], async ({ outbox }) => {
		// Taken once the database is open, as the transaction begins: seqs noted meanwhile count.
		const seqs = heldSeqs.get(undoId);
		heldSeqs.delete(undoId);
		let count = 0;
		const items = seqs
			? (await Promise.all(seqs.map((seq) => outbox.get(seq)))).filter(
					(item): item is OutboxItem => item !== undefined
				)
			: await outbox.getAll();
		for (const item of items) {
			if (item.undoId !== undoId) continue;
			await outbox.put(withoutHoldOf(item));
			count++;
		}
		return count;
	});
	if (released > 0) announceOutboxChange();
	return released;
}

export interface Undone {
	/** The keys of the items taken back (a key a later change replaced is not among them). */
	keys: Set<string>;
	/** Keys the reader changed after the held action (still queued): these stay as they are now. */
	changedSince: Set<string>;
}

/**
 * Undo: takes a held action's items out of the outbox unsent and puts back what they replaced
 * and the cache as it was. Undefined when it is too late: nothing of it is held any more (sent,
 * being sent, released, expired, or discarded), and then nothing changes.
 */
export async function cancelHold(undoId: string, now = Date.now()): Promise<Undone | undefined> {
	const undone = await writeStores(['outbox', 'articles', 'tree', 'settings'], (stores) => {
		heldSeqs.delete(undoId);
		return cancelIn(stores, undoId, now);
	});
	if (undone) announceOutboxChange();
	return undone;
}

/** cancelHold's reads and writes, in its one transaction. */
async function cancelIn(
	stores: Stores<['outbox', 'articles', 'tree', 'settings'], 'readwrite'>,
	undoId: string,
	now: number
): Promise<Undone | undefined> {
	const outbox = stores.outbox;
	const all = await outbox.getAll();
	const group = all.filter((i) => i.undoId === undoId).sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
	if (group.length === 0 || group.some((i) => !isHeld(i, now))) return undefined;
	const first = group[0]?.seq ?? 0;
	const others = all.filter((i) => i.undoId !== undoId);
	const later = others.filter((i) => (i.seq ?? 0) > first);
	const changedSince = new Set(later.map((i) => i.key));
	const laterKeys = new Set(changedSince);
	/** Catch-ups queued after it: what they cover stays read (they are sent all the same). */
	const laterCatchups = later.filter((i) => i.intent.type === 'catchup');
	/** Held later catch-ups that now mark an article read in the cache (undoing them puts it back). */
	const noted = new Set<OutboxItem>();
	// Made in an account whose cache this no longer is (signed out and in as another since, soak
	// seed 969868045): its items go, the cache is not put back (it never took the change).
	const ownCache = changeFitsCache(await readIn(stores.settings, CACHE_OWNER), group[0]?.account);
	const treeStore = stores.tree;
	const stored = await treeStore.get('current');
	const articles = stores.articles;
	let countersChanged = false;
	const revert = async (
		id: number,
		intent: Intent,
		tree: FeedTree | undefined,
		/** Catch-ups that will be sent before `intent` (so over the article as it is now). */
		before: readonly OutboxItem[] = []
	): Promise<StoredArticle | undefined> => {
		if (!ownCache) return undefined;
		const article = await articles.get(id);
		if (!article) return undefined;
		let delta = applyToArticle(article, intent, tree);
		const covering = article.unread
			? laterCatchups.find(
					(c) => !before.includes(c) && catchupCovers(c.intent as CatchupIntent, article, tree)
				)
			: undefined;
		if (covering) {
			// A later catch-up marks it read all the same: it stays read, here and on screen, and
			// is that catch-up's to put back if it is undone too.
			article.unread = false;
			delta -= 1;
			changedSince.add(unreadKey(id));
			if (covering.undo && !covering.undo.markedRead?.includes(id)) {
				(covering.undo.markedRead ??= []).push(id);
				noted.add(covering);
			}
		}
		await articles.put(article);
		if (delta !== 0) {
			adjustCounters(stored?.counters, tree, article, delta);
			countersChanged = true;
		}
		return article;
	};
	// Newest first: the reverse of the order they were applied in.
	for (const item of [...group].reverse()) {
		const undo = item.undo;
		// A later catch-up's scope depends on it (unstar, then catch up Starred): dropped, it would
		// let the catch-up cover an article the reader saw outside its scope. It is sent as it
		// is, and its inverse is queued after the catch-up (none if the reader changed it since).
		// A read change is not a scope: the catch-up covering it keeps it read (revert, below).
		const readChange = item.intent.type === 'flag' && item.intent.field === 'unread';
		const dependents = readChange ? [] : laterCatchups.filter((c) => mustStayBefore(item, c));
		if (dependents.length > 0 && undo?.inverse && item.articleId !== undefined) {
			await outbox.put(withoutHoldOf(item));
			if (!laterKeys.has(item.key)) {
				await outbox.add({
					key: item.key,
					intent: undo.inverse,
					createdAt: now,
					attempts: 0,
					articleId: item.articleId,
					...(item.account !== undefined ? { account: item.account } : {})
				});
				await revert(item.articleId, undo.inverse, stored?.tree, dependents);
			}
			continue;
		}
		if (item.seq !== undefined) await outbox.delete(item.seq);
		if (undo?.inverse && item.articleId !== undefined) {
			await revert(item.articleId, undo.inverse, stored?.tree);
		}
		if (ownCache && undo?.counters?.length) {
			restoreCounters(stored?.counters, undo.counters);
			for (const c of laterCatchups) {
				applyCatchupToCounters(stored?.counters, stored?.tree, c.intent as CatchupIntent);
			}
			countersChanged = true;
		}
		for (const id of undo?.markedRead ?? []) {
			if (changedSince.has(unreadKey(id))) continue;
			await revert(
				id,
				{ type: 'flag', field: 'unread', articleIds: [id], value: true },
				stored?.tree
			);
		}
		for (const older of undo?.replaced ?? []) {
			await outbox.put(older);
			// The older change stands again, over the cached copy too: an article stored during the
			// hold (a sync's page) took the held change over the server's answer, and its inverse
			// was the server's value, not this change's (found by the model test's soak).
			if (older.articleId !== undefined && !changedSince.has(older.key)) {
				await revert(older.articleId, older.intent, stored?.tree);
			}
		}
	}
	for (const item of noted) await outbox.put(item);
	// A later hold that replaced one of these must not bring it back if that one is undone too.
	for (const item of others) {
		const replaced = item.undo?.replaced;
		if (!replaced?.some((r) => r.undoId === undoId)) continue;
		await outbox.put({ ...item, undo: { ...item.undo, replaced: withoutHold(replaced, undoId) } });
	}
	if (stored && countersChanged) await treeStore.put(stored, 'current');
	return { keys: new Set(group.map((i) => i.key)), changedSince };
}
