/**
 * The sent log's writer (the log and its reads: sent-log.ts): the replay adds what the server
 * confirmed. Apart from the reads, which the first screen's rows use, so that only the replay
 * carries it.
 */
import type { OutboxItem } from '$lib/db/schema';
import { readIn, writeIn } from '$lib/db/kv';
import { writeStores } from '$lib/db/stores';
import { entries, SENT_HORIZON, SENT_LOG, SENT_LOG_MS, type SentEntry } from './sent-log';

/** Older entries beyond this many are dropped (never those of the batch being confirmed). */
const SENT_LOG_MAX = 500;

/**
 * The log with these items added as confirmed at `at`, older entries past their time (or beyond
 * SENT_LOG_MAX) dropped, and the horizon moved up to the newest entry dropped. One action of the
 * reader's ("Select all", Mark read: items made at once, confirmed in calls of MAX_IDS_PER_CALL) is
 * never cut by the cap, however large.
 */
export function withSent(
	log: unknown,
	items: readonly Pick<OutboxItem, 'intent' | 'account' | 'createdAt' | 'was'>[],
	at: number,
	horizon?: number
): { log: SentEntry[]; horizon: number | undefined } {
	const old = entries(log);
	const added: SentEntry[] = items.map((item) => ({
		intent: item.intent,
		sentAt: at,
		madeAt: item.createdAt,
		...(item.was !== undefined ? { was: item.was } : {}),
		...(item.account !== undefined ? { account: item.account } : {})
	}));
	const made = new Set(added.map((entry) => entry.madeAt));
	const recent = old.filter((entry) => entry.sentAt > at - SENT_LOG_MS);
	let room = SENT_LOG_MAX - added.length - recent.filter((e) => made.has(e.madeAt)).length;
	// Newest first: the oldest entries beyond the cap go, never one of this action's.
	const kept = recent
		.reverse()
		.filter((entry) => made.has(entry.madeAt) || room-- > 0)
		.reverse();
	const keptSet = new Set(kept);
	let newHorizon = horizon;
	for (const entry of old) {
		if (!keptSet.has(entry)) newHorizon = Math.max(newHorizon ?? -Infinity, entry.sentAt);
	}
	return { log: [...kept, ...added], horizon: newHorizon };
}

/**
 * Adds the items the server just confirmed (the replay, page and worker alike). Best effort, like
 * the replay's status: a read answered with older data may then show it a moment.
 */
export async function recordSent(items: readonly OutboxItem[], at: number): Promise<void> {
	try {
		await writeStores(['settings'], async ({ settings }) => {
			const horizon = await readIn(settings, SENT_HORIZON);
			const next = withSent(await readIn(settings, SENT_LOG), items, at, horizon);
			await writeIn(settings, SENT_LOG, next.log);
			if (next.horizon !== undefined) await writeIn(settings, SENT_HORIZON, next.horizon);
		});
	} catch {
		// Storage full or closing: nothing else depends on it.
	}
}
