/**
 * "Also mark them read" for muted articles: the hidden unread rows of the open list are marked
 * read through the one action path (state/actions.ts: shown at once, queued when offline, sent
 * once). Each article is tried once per page: a change the server refuses is not retried in a
 * loop (its reason is shown by the action path, as for any other change).
 */
import type { Headline } from '$lib/api';
import { setFlag } from './actions';

const tried = new Set<number>();

export function markMutedRead(hidden: readonly Headline[]): void {
	const targets = hidden.filter((h) => h.unread && !tried.has(h.id));
	if (targets.length === 0) return;
	for (const h of targets) tried.add(h.id);
	void setFlag(targets, 'unread', false);
}
