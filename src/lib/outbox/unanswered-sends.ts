/**
 * Sends that may still land after their change left the outbox. A change sent without an answer
 * (its page or worker died with the request on its way, or the request timed out) and then sent
 * again and confirmed leaves the outbox at once: landing twice is harmless. But the first send may
 * still reach tt-rss up to `UNANSWERED_MS` later, and undo a change the reader makes to the same
 * article and field meanwhile (chaos seed 4700013 in WebKit: a star sent by a page reloaded
 * mid-send, sent again and confirmed; the reader's unstar, confirmed; then the first star landed).
 * So `confirm` notes such a send here, per account and key, and a change queued for that key before
 * the send can no longer land carries it (`overtakes`, intent-effect.ts): it is sent once more after it.
 * Kept in the `settings` store, which sign-out clears; a note past its time is deleted when read.
 */
import { isFiniteNumber, readIn, storedKeyFamily, writeIn, type KvWritable } from '$lib/db/kv';
import type { OutboxItem } from '$lib/db/schema';
import { mayStillLand } from './replay-judge';

const doubtOf = storedKeyFamily<number>({
	store: 'settings',
	prefix: 'outbox-doubt:',
	owner: 'outbox/unanswered-sends.ts',
	parse: isFiniteNumber,
	fallback: () => 0
});

const doubtKey = (account: string | undefined, key: string) => doubtOf(`${account ?? ''}|${key}`);

/**
 * Notes that `item`, confirmed by a send made at `sentAt`, had an earlier send without an answer
 * that may land after it (nothing when it cannot). In the confirming transaction's `settings`.
 */
export async function noteUnansweredSend(
	store: KvWritable,
	item: OutboxItem,
	sentAt: number
): Promise<void> {
	if (item.intent.type === 'catchup' || item.intent.type === 'share') return;
	const at = item.attemptedAt;
	if (!mayStillLand(at, sentAt)) return;
	const key = doubtKey(item.account, item.key);
	const known = await readIn(store, key);
	if (at > known) await writeIn(store, key, at);
}

/**
 * For each key, the time of a send of it that may still land (undefined: none), read in the
 * queuing transaction's `settings`; notes past their time are deleted.
 */
export async function unansweredSendsFor(
	store: KvWritable,
	account: string | undefined,
	keys: readonly string[],
	now: number
): Promise<(number | undefined)[]> {
	return Promise.all(
		keys.map(async (k) => {
			const key = doubtKey(account, k);
			const at = await readIn(store, key);
			if (at === 0) return undefined;
			if (mayStillLand(at, now)) return at;
			await store.delete(key.name);
			return undefined;
		})
	);
}
