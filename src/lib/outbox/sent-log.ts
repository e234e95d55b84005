/**
 * Changes the server confirmed lately, with when (IndexedDB `settings`, key `sent-log`): server
 * data asked for before a change was confirmed does not know it, and must not put the old state
 * back in the cache or on screen. The outbox's pending items cover a change until it is sent;
 * this log covers it from then until any read asked for after it. Written by the replay (page and
 * worker alike, sent-log-write.ts), read by the cache's writes and by `withQueuedChanges`.
 *
 * Seen on CI: the first sync read the unread set, the reader opened an article (marked read, sent
 * at once), the sync then wrote its older copy — unread again on screen, and the reader's next
 * `u` (mark unread) sent "read".
 */
import { belongsTo } from '$lib/db/account';
import type { OutboxItem } from '$lib/db/schema';
import { getStored, isFiniteNumber, readIn, storedKey, type KvReadable } from '$lib/db/kv';
import { SENT_LOG_KEY } from '$lib/db/names';
import type { Intent } from './intent';

/** The log (its name is in db/names.ts: a switch of account wipes it). */
export const SENT_LOG = storedKey<SentEntry[]>({
	store: 'settings',
	name: SENT_LOG_KEY,
	owner: 'outbox/sent-log.ts',
	parse: (raw) => (Array.isArray(raw) ? (raw as SentEntry[]) : undefined),
	fallback: () => []
});
/**
 * The newest confirmation time the log dropped: an answer asked for at or before it may miss
 * changes the log no longer names (see `changesNotIn`).
 */
export const SENT_HORIZON = storedKey<number | undefined>({
	store: 'settings',
	name: 'sent-log-horizon',
	owner: 'outbox/sent-log.ts',
	parse: isFiniteNumber,
	fallback: () => undefined
});
/** Longer than any request a read waits for (the API's timeouts are under a minute). */
export const SENT_LOG_MS = 5 * 60_000;
export interface SentEntry {
	intent: Intent;
	account?: string;
	sentAt: number;
	/** When the reader made it (the item's `createdAt`): one action's entries are capped together. */
	madeAt?: number;
	/** The item's `was` (what the article had before a star, publish or label change). */
	was?: boolean;
}

/** The log's entries from what was stored (anything else: none). */
export function entries(value: unknown): SentEntry[] {
	return Array.isArray(value) ? (value as SentEntry[]) : [];
}

/**
 * The intents of `owner` the server confirmed at or after `readAt`, oldest first: what an answer
 * to a request made at `readAt` may not show yet.
 */
export function sentSince(
	log: unknown,
	owner: string | undefined,
	readAt: number
): Pick<SentEntry, 'intent' | 'was'>[] {
	return entries(log)
		.filter((entry) => entry.sentAt >= readAt && belongsTo(entry, owner))
		.map(({ intent, was }) => ({ intent, ...(was !== undefined ? { was } : {}) }));
}

/**
 * Whether the server confirmed any change of `owner` at or after `at` (the log's horizon counts:
 * entries it dropped were confirmed up to then). The sync engine asks it before it trusts unmoved
 * counters: the reader's own read (one less unread) and a new arrival (one more) leave the same
 * counts, and a sync that believed them fetched nothing (found by the alerts e2e).
 */
export async function confirmedSince(owner: string | undefined, at: number): Promise<boolean> {
	const horizon = await getStored(SENT_HORIZON);
	if (horizon !== undefined && horizon >= at) return true;
	return sentSince(await getStored(SENT_LOG), owner, at).length > 0;
}

/**
 * A change an answer may not show: a queued item, or (`confirmed`) one the server confirmed at or
 * after the answer was asked for, which the answer may show already or not.
 */
export type NotShown = Partial<OutboxItem> & { intent: Intent; confirmed?: true };

/**
 * The reader's changes a server answer asked for at `readAt` may not show yet, oldest first: those
 * the server confirmed since, then those still queued (or held for an Undo). Without `readAt`, the
 * queued ones only. `unknown` when the answer was asked for before the log's horizon (a sync that
 * ran longer than SENT_LOG_MS while changes were confirmed): the log no longer names every change
 * it may miss, so its writes keep the cached articles' own state (see cache/cache-reads.ts). The one rule
 * for the cache's writes and for rows shown from an answer.
 */
export async function changesNotIn(
	stores: {
		settings: KvReadable;
		outbox: { getAll(): Promise<OutboxItem[]> };
	},
	owner: string | undefined,
	readAt?: number
): Promise<{ changes: NotShown[]; unknown: boolean }> {
	let sent: Pick<SentEntry, 'intent' | 'was'>[] = [];
	let unknown = false;
	if (readAt !== undefined) {
		sent = sentSince(await readIn(stores.settings, SENT_LOG), owner, readAt);
		const horizon = await readIn(stores.settings, SENT_HORIZON);
		unknown = horizon !== undefined && readAt <= horizon;
	}
	const queued = (await stores.outbox.getAll()).filter((item) => belongsTo(item, owner));
	return {
		changes: [...sent.map((entry): NotShown => ({ ...entry, confirmed: true })), ...queued],
		unknown
	};
}
