/**
 * A start's look at the write-ahead journal (write-ahead.ts): each change a page that is gone
 * wrote ahead and whose outbox write never committed is queued now, once; entries whose write did
 * commit are dropped. Loaded by a start's first screen only when the journal has entries
 * (hooks.client.ts); otherwise after it, to tidy the settled marks (state/lifecycle.ts).
 */
import { RefusedError } from '$lib/api';
import { enqueueIntent, forgetSettledEntries, settledEntries } from '$lib/outbox/enqueue';
import { requestReplay } from './replay-triggers';
import { dropEntries, leftEntries, readJournal, whenPageGone } from './write-ahead';

/** One start at a time looks (two tabs starting together would both queue an entry). */
const LOCK = 'reader-journal-recovery';

/**
 * Queues the changes left behind; resolves with how many were queued. Entries of a page that
 * still holds its lock (another tab, or the page a reload just left) are looked at again once it
 * lets go, and the replay is asked for then.
 */
export async function recoverLeftChanges(): Promise<number> {
	const { queued, waiting } = await locked(recover);
	for (const tab of waiting) {
		whenPageGone(tab, async () => {
			if ((await locked(recover)).queued > 0) requestReplay();
		});
	}
	return queued;
}

async function locked<T>(run: () => Promise<T>): Promise<T> {
	if (typeof navigator !== 'undefined' && navigator.locks)
		return navigator.locks.request(LOCK, run);
	return run();
}

async function recover(): Promise<{ queued: number; waiting: string[] }> {
	const { left, waiting } = await leftEntries();
	left.sort((a, b) => a.at - b.at);
	let queued = 0;
	if (left.length > 0) {
		const settled = await settledEntries(left.map((e) => e.id));
		for (const entry of left) {
			if (!settled.has(entry.id)) {
				try {
					await enqueueIntent(entry.intent, entry.at, undefined, {
						journal: entry.id,
						account: entry.account
					});
					queued++;
				} catch (error) {
					// Refused (another account's cache, say): it cannot be queued, now or later. Storage
					// trouble: the entry stays for the next start.
					if (!(error instanceof RefusedError)) continue;
				}
			}
			dropEntries(new Set([entry.id]));
		}
	}
	await tidySettledMarks();
	return { queued, waiting };
}

/**
 * Deletes the settled marks of entries no page keeps any more (their pages dropped them after the
 * commit): every change writes one, and only a start deletes them (state/lifecycle.ts, once the
 * first screen is up), so the `settings` store does not grow a key per change.
 */
export function tidySettledMarks(): Promise<void> {
	return forgetSettledEntries(new Set(readJournal().map((e) => e.id)));
}
