/**
 * The replay's books in IndexedDB: an item's attempt noted before it is sent, confirmed items out
 * of the outbox (into the sent log first), put-off items given their next try, given-up items
 * moved to the failed list, and the replay's status for the reader.
 */
import { openReaderDb } from '$lib/db/open';
import { writeTxWithRoom } from '$lib/db/quota';
import { writeTx } from '$lib/db/tx';
import type { FailedItem, OutboxItem } from '$lib/db/schema';
import { retryAt } from './replay-plan';
import { UNANSWERED_MS } from './replay-judge';
import { recordSent } from './sent-log-write';
import { updateReplayStatus, type ReplayStatus } from './status';

export async function attemptedAt(item: OutboxItem): Promise<number | undefined> {
	if (item.seq === undefined) return undefined;
	const db = await openReaderDb();
	return (await db.get('outbox', item.seq))?.attemptedAt;
}

/**
 * Notes the attempt before sending. If it cannot be noted (a full quota, even after freeing cache
 * room), the item is not sent: a share sent unnoted and answered by a lost reply would be
 * published again, and a catch-up would be taken for a first try and cover more. The error stops
 * the replay like a transport failure; everything stays queued for the next trigger.
 */
export async function markAttempted(item: OutboxItem): Promise<void> {
	await updateItem(item, (current) => {
		current.attemptedAt = Date.now();
	});
}

/**
 * Changes a queued item in place, if it is still queued. The replay's bookkeeping frees cache room
 * first when the quota is full; if it still cannot be written, the StorageFullError propagates.
 */
async function updateItem(item: OutboxItem, change: (current: OutboxItem) => void): Promise<void> {
	const seq = item.seq;
	if (seq === undefined) return;
	const db = await openReaderDb();
	await writeTxWithRoom(db, ['outbox'], async (tx) => {
		const current = await tx.store.get(seq);
		if (current) {
			change(current);
			await tx.store.put(current);
		}
	});
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
 */
/**
 * The server confirmed these: they leave the outbox (a newer replacement has another seq). The
 * deletes commit on their own: under a full quota the status write fails, and confirmed items
 * kept because of it would be sent again and again.
 *
 * Seen in the chaos runs (seed 2001): a star sent, held on the way, abandoned when the device went
 * offline; the reader's unstar replaced it and was confirmed, and then the held star reached
 * tt-rss — the server ended starred. So a change that replaced one sent without an answer
 * (`overtakes`) and was sent before that one can no longer land stays queued until then, and is
 * sent once more (absolute values: sending again is harmless).
 */
export async function confirm(
	items: readonly OutboxItem[],
	at: number,
	sentAt = at
): Promise<void> {
	const db = await openReaderDb();
	// Logged before they leave the outbox: a write in between finds them one way or the other.
	await recordSent(db, items, at);
	await writeTx(db, ['outbox'], async (tx) => {
		const writes: Promise<unknown>[] = [];
		for (const item of items) {
			if (item.seq === undefined) continue;
			const until = item.overtakes === undefined ? undefined : item.overtakes + UNANSWERED_MS;
			if (until !== undefined && sentAt < until) {
				// Only if it is still the same item (not replaced by a newer change meanwhile).
				const seq = item.seq;
				writes.push(
					tx.store.get(seq).then(async (current) => {
						if (current) await tx.store.put({ ...current, notBefore: until });
					})
				);
			} else writes.push(tx.store.delete(item.seq));
		}
		await Promise.all(writes);
	});
	await noteStatus({ lastSentAt: at });
}

/**
 * Notes a write sent at `at` that ended without tt-rss's answer: it may still land. Best effort: a
 * change whose mark is not written is only not sent once more (see `confirm`).
 *
 * The reader may have replaced it while it was on its way (chaos seed 2001 in CI, 2026-11-27: a
 * star held by the proxy, the unstar queued meanwhile, the star abandoned when the device went
 * offline; the unstar, sent and confirmed, was then overtaken by the held star). The replacement
 * did not know the send was in doubt when it was queued (`way-in.ts` reads `attemptedAt`), so it
 * is told now: it carries the time (`overtakes`) and is sent once more after it (`confirm`).
 */
export async function noteUnanswered(items: readonly OutboxItem[], at: number): Promise<void> {
	for (const item of items) {
		const seq = item.seq;
		if (seq === undefined) continue;
		try {
			const db = await openReaderDb();
			await writeTxWithRoom(db, ['outbox'], async (tx) => {
				const current = await tx.store.get(seq);
				if (current) {
					current.attemptedAt = at;
					await tx.store.put(current);
					return;
				}
				const newer = await tx.store.index('byKey').getAll(item.key);
				for (const replacement of newer) {
					if (replacement.seq === undefined || replacement.seq < seq) continue;
					if (replacement.account !== item.account) continue;
					replacement.overtakes = Math.max(replacement.overtakes ?? at, at);
					await tx.store.put(replacement);
				}
			});
		} catch {
			// Storage full: the replay stops or goes on as the verdict says.
		}
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
	const db = await openReaderDb();
	await writeTxWithRoom(db, ['outbox', 'failed'], async (tx) => {
		// Only if it is still the same item (not replaced by a newer change meanwhile).
		const current = await tx.objectStore('outbox').get(seq);
		if (current) {
			await tx.objectStore('outbox').delete(seq);
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
			await tx.objectStore('failed').add(failed);
		}
	});
}
