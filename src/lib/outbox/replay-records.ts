/**
 * The replay's books in IndexedDB: an item's attempt noted before it is sent, confirmed items out
 * of the outbox (into the sent log first), put-off items given their next try, given-up items
 * moved to the failed list, and the replay's status for the reader.
 */
import type { FailedItem, OutboxItem } from '$lib/db/schema';
import { writeStores } from '$lib/db/stores';
import { outboxItem } from '$lib/db/later-reads';
import { writeStoresWithRoom } from '$lib/db/quota';
import { retryAt } from './replay-plan';
import { mayStillLand, UNANSWERED_MS } from './replay-judge';
import { recordSent } from './sent-log-write';
import { updateReplayStatus, type ReplayStatus } from './status';
import { catchupKeyRange, flagKeyPrefix, keyPrefixRange } from './split';
import { latest, unansweredAt } from './intent-effect';
import { marksUnread } from './intent';
import { noteUnansweredSend } from './unanswered-sends';

export async function attemptedAt(item: OutboxItem): Promise<number | undefined> {
	if (item.seq === undefined) return undefined;
	return (await outboxItem(item.seq))?.attemptedAt;
}

/**
 * Notes the attempt before sending. If it cannot be noted (a full quota, even after freeing cache
 * room), the item is not sent: a share sent unnoted and answered by a lost reply would be
 * published again, and a catch-up would be taken for a first try and cover more. The error stops
 * the replay like a transport failure; everything stays queued for the next trigger.
 */
export async function markAttempted(item: OutboxItem, at: number): Promise<void> {
	await updateItem(item, (current) => {
		current.attemptedAt = at;
	});
}

/**
 * Changes a queued item in place, if it is still queued. The replay's bookkeeping frees cache room
 * first when the quota is full; if it still cannot be written, the StorageFullError propagates.
 */
async function updateItem(item: OutboxItem, change: (current: OutboxItem) => void): Promise<void> {
	const seq = item.seq;
	if (seq === undefined) return;
	await writeStoresWithRoom(['outbox'], async ({ outbox }) => {
		const current = await outbox.get(seq);
		if (current) {
			change(current);
			await outbox.put(current);
		}
	});
}

/** The outbox as the books' transactions see it: enough to find an item and what replaced it. */
interface OutboxStore {
	get(seq: number): Promise<OutboxItem | undefined>;
	put(item: OutboxItem): Promise<unknown>;
	index(name: 'byKey'): { getAll(key: string | IDBKeyRange): Promise<OutboxItem[]> };
}

/** The changes queued over `item` since it was read: the same key, newer, the same account. */
async function replacementsOf(store: OutboxStore, item: OutboxItem): Promise<OutboxItem[]> {
	const seq = item.seq ?? Infinity;
	return (await store.index('byKey').getAll(item.key)).filter(
		(r) => r.seq !== undefined && r.seq > seq && r.account === item.account
	);
}

/** Tells the changes queued over `item` that a request for it sent at `at` may still land. */
async function doubtReplacements(store: OutboxStore, item: OutboxItem, at: number): Promise<void> {
	for (const replacement of await replacementsOf(store, item)) {
		replacement.overtakes = Math.max(replacement.overtakes ?? at, at);
		await store.put(replacement);
	}
}

/**
 * A catch-up about to be sent again after an earlier send (`at`) whose answer never came: that send
 * may still land and mark read what the reader marked unread since. Every mark unread of the
 * account queued behind it is told (`overtakes`), so it is sent once more once that send can no
 * longer land (soak seed 969868044: the worker stopped with the catch-up's request on its way;
 * the page's mark unread, sent after the catch-up's second send and confirmed, was then undone by
 * the first). Which articles the catch-up covers is not asked: a second send is harmless.
 */
export async function doubtMarksUnread(catchup: OutboxItem, at: number): Promise<void> {
	const seq = catchup.seq ?? Infinity;
	try {
		await writeStores(['outbox'], async ({ outbox }) => {
			const range = keyPrefixRange(flagKeyPrefix('unread'));
			for (const item of await outbox.index('byKey').getAll(range)) {
				if (item.seq === undefined || item.seq < seq || item.account !== catchup.account) continue;
				if (!marksUnread(item.intent)) continue;
				item.overtakes = Math.max(item.overtakes ?? at, at);
				await outbox.put(item);
			}
		});
	} catch {
		// Storage full: as the other marks (overCallItems).
	}
}

/**
 * A mark unread confirmed while an earlier send of it may still land (sent without an answer, or
 * by a sender that died: `unansweredAt`, as the items were planned): a catch-up queued behind it
 * would be undone by that landing, so it is told (`overtakes`) and sent once more after the send
 * can no longer land (soak seed 969868045: the worker died with the mark unread on its way, the
 * next one sent it and the reader's catch-up, and then the first send landed).
 */
async function doubtCatchups(
	store: OutboxStore,
	items: readonly OutboxItem[],
	sentAt: number
): Promise<void> {
	const doubts = items.flatMap((item) => {
		const at = marksUnread(item.intent) ? unansweredAt(item) : undefined;
		return mayStillLand(at, sentAt) ? [{ item, at }] : [];
	});
	if (doubts.length === 0) return;
	for (const catchup of await store.index('byKey').getAll(catchupKeyRange())) {
		const at = latest(
			...doubts
				.filter(
					({ item }) => item.account === catchup.account && (item.seq ?? 0) < (catchup.seq ?? 0)
				)
				.map((d) => d.at)
		);
		if (at === undefined) continue;
		catchup.overtakes = Math.max(catchup.overtakes ?? at, at);
		await store.put(catchup);
	}
}

/** Status writes are for the reader's information: a full quota must not stop the replay. */
export async function noteStatus(patch: Partial<ReplayStatus>): Promise<void> {
	try {
		await updateReplayStatus(patch);
	} catch {
		// The next successful write tells the reader.
	}
}

/**
 * The server confirmed these: they leave the outbox (a newer replacement has another seq). The
 * deletes commit on their own: under a full quota the status write fails, and confirmed items
 * kept because of it would be sent again and again.
 *
 * Seen in the chaos runs (seed 2001): a star sent, held on the way, abandoned when the device went
 * offline; the reader's unstar replaced it and was confirmed, and then the held star reached
 * tt-rss — the server ended starred. So a change that replaced one sent without an answer
 * (`overtakes`) and was sent before that one can no longer land stays queued until then, and is
 * sent once more (absolute values: sending again is harmless). Returns whether one was kept so:
 * it is put off like a deferred item, and what was planned after it must be planned again around
 * it (a catch-up queued later waits for its second send: chaos seed 2001 in WebKit).
 */
export async function confirm(
	items: readonly OutboxItem[],
	at: number,
	sentAt = at
): Promise<boolean> {
	let kept = false;
	// Logged before they leave the outbox: a write in between finds them one way or the other.
	await recordSent(items, at);
	await writeStores(['outbox', 'settings'], async ({ outbox, settings }) => {
		const writes: Promise<unknown>[] = [];
		for (const item of items) {
			const seq = item.seq;
			if (seq === undefined) continue;
			writes.push(
				outbox.get(seq).then(async (current) => {
					// Replaced by a newer change meanwhile: that one has its own seq and its own send.
					if (!current) return;
					// As stored now: a doubt may have come while this was on its way (a catch-up sent
					// again, an earlier send noted unanswered).
					const doubt = latest(current.overtakes, item.overtakes);
					if (mayStillLand(doubt, sentAt)) {
						kept = true;
						await outbox.put({ ...current, notBefore: doubt + UNANSWERED_MS });
					} else {
						await outbox.delete(seq);
						// An earlier send of it may still land: a later change of its key waits it out.
						await noteUnansweredSend(settings, current, sentAt);
					}
				})
			);
		}
		await Promise.all(writes);
		await doubtCatchups(outbox, items, sentAt);
	});
	await noteStatus({ lastSentAt: at });
	return kept;
}

/**
 * Notes a write sent at `at` that ended without tt-rss's answer: it may still land. Best effort: a
 * change whose mark is not written is only not sent once more (see `confirm`).
 *
 * The reader may have replaced it while it was on its way (chaos seed 2001 in CI, 2026-11-27: a
 * star held by the proxy, the unstar queued meanwhile, the star abandoned when the device went
 * offline; the unstar, sent and confirmed, was then overtaken by the held star). The replacement
 * did not know the send was in doubt when it was queued (`intent-effect.ts` reads `attemptedAt`), so it
 * is told now: it carries the time (`overtakes`) and is sent once more after it (`confirm`).
 */
export async function noteUnanswered(items: readonly OutboxItem[], at: number): Promise<void> {
	await overCallItems(
		items,
		(current) => {
			current.attemptedAt = at;
			return true;
		},
		(store, item) => doubtReplacements(store, item, at),
		true
	);
}

/**
 * Notes on the items of an article call, before it is sent, that a request for them is on its way
 * (`sendingAt`). If the sender dies before the answer (the browser stopped the worker, the tab
 * closed), nothing else would tell that the request may still land; a change queued over one of
 * these then waits for it (intent-effect.ts, `confirm`). Seen in the chaos runs (seed 2002, 2026-11-27):
 * the worker was stopped while its mark read was held on the way; the reader's mark unread,
 * queued and sent from the page, was confirmed, and then the mark read reached tt-rss. An item
 * replaced since the replay planned the call (which still sends the older value) has its
 * replacement told at once, as for an unanswered send.
 */
export async function markSending(items: readonly OutboxItem[], at: number): Promise<void> {
	await overCallItems(
		items,
		(current) => {
			// A send noted before and never settled: its sender died (one replays at a time), and its
			// request may still land. It stays unanswered (soak seed 969868045: overwritten, the reader's
			// label removal queued during this send lost its wait when this one was answered).
			if (current.sendingAt !== undefined) {
				current.attemptedAt = Math.max(current.attemptedAt ?? current.sendingAt, current.sendingAt);
			}
			current.sendingAt = at;
			return true;
		},
		(store, item) => doubtReplacements(store, item, at)
	);
}

/**
 * The call sent at `at` ended (answered, or failed and noted by `noteUnanswered`): its items no
 * longer say a request is on its way. When the server answered, a change queued over one of them
 * meanwhile has nothing to wait for on its account: the doubt it took from this send only is
 * dropped (no second send, no wait). An item's own earlier doubt still stands.
 */
export async function settleSending(
	items: readonly OutboxItem[],
	at: number,
	answered: boolean
): Promise<void> {
	await overCallItems(
		items,
		(current) => {
			if (current.sendingAt === undefined) return false;
			delete current.sendingAt;
			return true;
		},
		async (store, item) => {
			// The item as planned: a `sendingAt` there is an earlier sender's, gone without settling.
			if (
				!answered ||
				item.attemptedAt !== undefined ||
				item.overtakes !== undefined ||
				item.sendingAt !== undefined
			) {
				return;
			}
			for (const replacement of await replacementsOf(store, item)) {
				if (replacement.overtakes !== at) continue;
				delete replacement.overtakes;
				await store.put(replacement);
			}
		}
	);
}

/**
 * Goes over a call's items in one transaction: `still` changes an item still queued (and says
 * whether to write it), `replaced` handles one a newer change replaced since the replay read it.
 * Best effort: under a full quota the marks stay as they were (at worst a change is not, or once
 * more, sent again later); with `freeRoom`, cache room is freed first (an unanswered send), not
 * for the marks every call makes.
 */
async function overCallItems(
	items: readonly OutboxItem[],
	still: (current: OutboxItem) => boolean,
	replaced: (store: OutboxStore, item: OutboxItem) => Promise<void>,
	freeRoom = false
): Promise<void> {
	try {
		await (freeRoom ? writeStoresWithRoom : writeStores)(['outbox'], async ({ outbox }) => {
			for (const item of items) {
				if (item.seq === undefined) continue;
				const current = await outbox.get(item.seq);
				if (!current) await replaced(outbox, item);
				else if (still(current)) await outbox.put(current);
			}
		});
	} catch {
		// Storage full: see above.
	}
}

export async function deferItem(item: OutboxItem, now: number): Promise<void> {
	await updateItem(item, (current) => {
		current.attempts += 1;
		current.notBefore = retryAt(current.attempts, now);
	});
}

export async function moveToFailed(
	item: OutboxItem,
	code: string,
	reason: string,
	now: number
): Promise<void> {
	const seq = item.seq;
	if (seq === undefined) return;
	await writeStoresWithRoom(['outbox', 'failed'], async (stores) => {
		// Only if it is still the same item (not replaced by a newer change meanwhile).
		const current = await stores.outbox.get(seq);
		if (current) {
			await stores.outbox.delete(seq);
			const failed: FailedItem = {
				intent: current.intent,
				key: current.key,
				code,
				reason,
				failedAt: now,
				attempts: current.attempts + 1,
				...(current.articleId !== undefined ? { articleId: current.articleId } : {}),
				...(current.account !== undefined ? { account: current.account } : {})
			};
			await stores.failed.add(failed);
		}
	});
}
