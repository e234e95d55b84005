/**
 * When to read the unread counters again after the reader's own changes. submitIntent resolves
 * once a change is queued in the outbox, before the server has it; counters read then would
 * undo the optimistic counts on screen. So they are read once the outbox is empty again.
 */
import { onOutboxChange } from '$lib/outbox/broadcast';
import { pendingCount } from '$lib/outbox/outbox';
import { treeState } from './tree.svelte';

export async function refreshCountersWhenSent(): Promise<void> {
	if ((await pendingCount()) === 0) await treeState.refreshCounters();
}

/** Follows the outbox (sends by this page); returns the unsubscribe function. */
export function syncCountersWithOutbox(): () => void {
	return onOutboxChange(() => void refreshCountersWhenSent());
}
