/**
 * Changes the server confirmed lately, with when (IndexedDB `settings`, key `sent-log`): server
 * data asked for before a change was confirmed does not know it, and must not put the old state
 * back in the cache or on screen. The outbox's pending items cover a change until it is sent;
 * this log covers it from then until any read asked for after it. Written by the replay (page and
 * worker alike), read by the cache's writes and by `withQueuedChanges`.
 *
 * Seen on CI: the first sync read the unread set, the reader opened an article (marked read, sent
 * at once), the sync then wrote its older copy — unread again on screen, and the reader's next
 * `u` (mark unread) sent "read".
 */
import { belongsTo } from '$lib/db/account';
import type { OutboxItem } from '$lib/db/schema';
import type { Intent } from './intent';

export const SENT_LOG_KEY = 'sent-log';
/** Longer than any request a read waits for (the API's timeouts are under a minute). */
export const SENT_LOG_MS = 5 * 60_000;
const SENT_LOG_MAX = 500;

export interface SentEntry {
	intent: Intent;
	account?: string;
	sentAt: number;
}

function entries(value: unknown): SentEntry[] {
	return Array.isArray(value) ? (value as SentEntry[]) : [];
}

/** The log with these items added as confirmed at `at`, and entries past their time dropped. */
export function withSent(
	log: unknown,
	items: readonly Pick<OutboxItem, 'intent' | 'account'>[],
	at: number
): SentEntry[] {
	const kept = entries(log).filter((entry) => entry.sentAt > at - SENT_LOG_MS);
	const added = items.map((item) => ({
		intent: item.intent,
		sentAt: at,
		...(item.account !== undefined ? { account: item.account } : {})
	}));
	return [...kept, ...added].slice(-SENT_LOG_MAX);
}

/**
 * The intents of `owner` the server confirmed at or after `readAt`, oldest first: what an answer
 * to a request made at `readAt` may not show yet.
 */
export function sentSince(log: unknown, owner: string | undefined, readAt: number): Intent[] {
	return entries(log)
		.filter((entry) => entry.sentAt >= readAt && belongsTo(entry, owner))
		.map((entry) => entry.intent);
}

/**
 * The reader's changes a server answer asked for at `readAt` may not show yet, oldest first: those
 * the server confirmed since, then those still queued (or held for an Undo). Without `readAt`, the
 * queued ones only. The one rule for the cache's writes and for rows shown from an answer.
 */
export async function changesNotIn(
	stores: {
		settings: { get(key: string): Promise<unknown> };
		outbox: { getAll(): Promise<OutboxItem[]> };
	},
	owner: string | undefined,
	readAt?: number
): Promise<(Partial<OutboxItem> & { intent: Intent })[]> {
	const sent =
		readAt === undefined ? [] : sentSince(await stores.settings.get(SENT_LOG_KEY), owner, readAt);
	const queued = (await stores.outbox.getAll()).filter((item) => belongsTo(item, owner));
	return [...sent.map((intent) => ({ intent })), ...queued];
}
