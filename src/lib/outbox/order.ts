/**
 * The order rule of the queue: which change may reach the server before a catch-up queued ahead
 * of it. Replay uses it to let changes pass a held catch-up, enqueue to decide whether a newer
 * change may replace an older one queued before a catch-up (coalescing moves a change to the
 * queue's end), and undo to decide whether a held change can simply be dropped.
 */
import { LABELS_CATEGORY, SPECIAL_CATEGORY, SPECIAL_FEED } from '$lib/api';
import type { OutboxItem } from '$lib/db/schema';
import type { Intent, CatchupIntent } from './intent';

/**
 * Whether a change queued after a held catch-up may reach the server before it: only when the
 * catch-up could not touch it, so that the server ends as the reader did things, whether the
 * catch-up is then sent or undone. A later read/unread change could be one of its articles (the
 * catch-up would overwrite it); a star, publish or label change could move an article into or out
 * of a scope defined by that flag (Starred, Published, a label, the Special and Labels
 * categories, a search, which can name any flag); catch-ups and shares keep their order. Notes
 * never change a catch-up's scope outside a search.
 */
export function mayOvertake(later: Intent, held: CatchupIntent): boolean {
	if (later.type === 'catchup' || later.type === 'share') return false;
	// A setting touches no article: no catch-up's scope.
	if (later.type === 'setting') return true;
	if (held.search || typeof held.feedId !== 'number') return later.type === 'note' && !held.search;
	const feed = held.isCat ? undefined : held.feedId;
	const special = held.isCat && held.feedId === SPECIAL_CATEGORY;
	const labels = held.isCat && held.feedId === LABELS_CATEGORY;
	switch (later.type) {
		case 'note':
			return true;
		case 'flag':
			if (later.field === 'unread') return false;
			if (special) return false;
			return later.field === 'starred'
				? feed !== SPECIAL_FEED.starred
				: feed !== SPECIAL_FEED.published;
		case 'label':
			return !labels && feed !== later.labelId;
	}
}

/**
 * Whether `item` must reach the server before `catchup`, a catch-up queued after it in the same
 * account: the catch-up's effect depends on it (it changes which articles the catch-up covers, or
 * is a read change the catch-up would overwrite).
 */
export function mustStayBefore(item: OutboxItem, catchup: OutboxItem): boolean {
	return (
		catchup.intent.type === 'catchup' &&
		(catchup.seq ?? 0) > (item.seq ?? 0) &&
		catchup.account === item.account &&
		!mayOvertake(item.intent, catchup.intent)
	);
}
