/**
 * When to read the unread counters again after the reader's own changes. submitIntent resolves
 * once a change is queued in the outbox, before the server has it; counters read then would
 * undo the optimistic counts on screen. So they are read once the outbox is empty again, and has
 * stayed so for COUNTERS_QUIET_MS: a reader going through articles (j, j, j: each one marked read,
 * sent and confirmed) has them read once when they pause, not once an article. The counts on
 * screen moved with each change already (the one counter model, counters/counts.ts); the server's
 * read only settles what the device cannot know. On a big account each read is a reply of
 * ~90 KB and a write of the whole stored tree, the main thread's work between two articles,
 * where the next tap waits.
 */
import { onAccountEvent } from '$lib/db/account-events';
import { onOutboxChange } from '$lib/outbox/broadcast';
import { pendingCount } from '$lib/outbox/outbox';
import { settleTimer } from '$lib/timing/settle';
import { treeState } from './tree.svelte';

/** How long the outbox stays empty before the counters are read again. */
export const COUNTERS_QUIET_MS = 1000;

const due = settleTimer(() => void refreshIfSent(), { quietMs: COUNTERS_QUIET_MS });

/** Reads the counters again COUNTERS_QUIET_MS after the last call, when the outbox is empty then. */
export function refreshCountersWhenSent(): void {
	due.changed();
}

async function refreshIfSent(): Promise<void> {
	if ((await pendingCount()) === 0) await treeState.refreshCounters();
}

// Signed out or switched: the read due is the other account's.
onAccountEvent(() => due.cancel());

/** Follows the outbox (sends by this page); returns the unsubscribe function. */
export function syncCountersWithOutbox(): () => void {
	const stop = onOutboxChange(refreshCountersWhenSent);
	return () => {
		stop();
		due.cancel();
	};
}
