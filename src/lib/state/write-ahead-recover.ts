/**
 * A start's look at the write-ahead journal (write-ahead.ts): each change a page that is gone
 * wrote ahead and whose outbox write never committed is queued now, once; entries whose write did
 * commit are dropped. Loaded by a start's first screen only when the journal has entries
 * (hooks.client.ts); otherwise after it, to tidy the settled marks and to watch the other pages
 * (state/lifecycle.ts): a page that writes a change ahead after this one started and then goes
 * before its outbox write commits (a second tab closed right after a tap) leaves its entry to
 * this page, not to the next start, which may be hours away (chaos seed 5000013).
 */
import { RefusedError } from '$lib/api';
import { enqueueIntent, forgetSettledEntries, settledEntries } from '$lib/outbox/enqueue';
import { requestReplay } from './replay-triggers';
import {
	dropEntries,
	leftEntries,
	otherPagesWithEntries,
	readAllEntries,
	whenPageGone
} from './write-ahead';
import { JOURNAL_KEY } from './write-ahead-check';

/** One start at a time looks (two tabs starting together would both queue an entry). */
const LOCK = 'reader-journal-recovery';

/** Whether this page has looked at the journal already (its start, or after its first screen). */
let looked = false;

/**
 * Queues the changes left behind; resolves with how many were queued. Entries of a page that
 * still holds its lock (another tab, or the page a reload just left) are looked at again once it
 * lets go, and the replay is asked for then.
 */
export async function recoverLeftChanges(): Promise<number> {
	looked = true;
	const { queued, waiting } = await locked(() => recover());
	for (const tab of waiting) afterPage(tab);
	return queued;
}

/**
 * Once the first screen is up (state/lifecycle.ts): what only the durable copy kept (a browser
 * killed before local storage was written, db/journal-db.ts) is queued and sent now; the settled
 * marks of earlier changes are tidied.
 */
export async function recoverAfterStart(): Promise<void> {
	// A start that found entries looked before its first screen (hooks.client.ts), both copies.
	if (looked) return;
	if ((await recoverLeftChanges()) > 0) requestReplay();
}

/** The other pages this one waits for (each once): when one goes, its entries are looked at. */
const awaited = new Set<string>();

function afterPage(tab: string): void {
	if (awaited.has(tab)) return;
	awaited.add(tab);
	whenPageGone(tab, async () => {
		// Its lock is this page's now, until this returns: gone all the same.
		if ((await locked(() => recover(new Set([tab])))).queued > 0) requestReplay();
	});
}

/**
 * Watches the journal for entries other pages write from now on (the `storage` event: another
 * page of this origin changed local storage) and waits for each such page to go; returns the
 * function that stops watching. A page whose entries all settle is still awaited, and found with
 * nothing left when it goes.
 */
export function watchOtherPages(): () => void {
	if (typeof window === 'undefined') return () => undefined;
	const changed = (event: StorageEvent): void => {
		if (event.key !== JOURNAL_KEY || event.newValue === null) return;
		for (const tab of otherPagesWithEntries()) afterPage(tab);
	};
	window.addEventListener('storage', changed);
	return () => window.removeEventListener('storage', changed);
}

async function locked<T>(run: () => Promise<T>): Promise<T> {
	if (typeof navigator !== 'undefined' && navigator.locks)
		return navigator.locks.request(LOCK, run);
	return run();
}

async function recover(
	gone: ReadonlySet<string> = new Set()
): Promise<{ queued: number; waiting: string[] }> {
	// Read once: what is left, and (less what is dropped below) whose settled marks are kept.
	const all = await readAllEntries();
	const { left, waiting } = await leftEntries(all, Date.now(), gone);
	const dropped = new Set<string>();
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
			dropped.add(entry.id);
		}
	}
	await tidySettledMarks(new Set(all.flatMap((e) => (dropped.has(e.id) ? [] : [e.id]))));
	return { queued, waiting };
}

/**
 * Deletes the settled marks of entries no page keeps any more (their pages dropped them after the
 * commit): every change writes one, and only a start deletes them (state/lifecycle.ts, once the
 * first screen is up), so the `settings` store does not grow a key per change.
 */
export async function tidySettledMarks(kept?: ReadonlySet<string>): Promise<void> {
	// `kept`: the entries still in the journal, when the caller has just read it. A mark is only
	// forgotten ten minutes after its change, so an entry written since cannot lose its own.
	await forgetSettledEntries(kept ?? new Set((await readAllEntries()).map((e) => e.id)));
}
