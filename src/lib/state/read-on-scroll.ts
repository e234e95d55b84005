/**
 * "Mark read while scrolling": the unread rows that scrolled past the top of the headline list are
 * marked read, in one batch once the scrolling pauses, so a fling past fifty rows is one change in
 * the outbox rather than fifty.
 */
import { setFlagSoon } from './act';
import { headlines } from './headlines.svelte';
import { settings } from './settings.svelte';

/** How long the list must rest before the rows scrolled past are marked. */
export const READ_ON_SCROLL_PAUSE_MS = 500;

/** Returns the handler for the list's "rows before this index have scrolled past". */
export function readOnScroll(): (firstVisible: number) => void {
	const scrolledPast = new Set<number>();
	let flushTimer: ReturnType<typeof setTimeout> | undefined;
	return (firstVisible) => {
		if (!settings.values.markReadOnScroll) return;
		for (const h of headlines.items.slice(0, firstVisible)) {
			if (h.unread) scrolledPast.add(h.id);
		}
		clearTimeout(flushTimer);
		flushTimer = setTimeout(() => {
			const ids = new Set(scrolledPast);
			scrolledPast.clear();
			// Read again: a row marked by hand meanwhile is not marked a second time.
			const refs = headlines.items.filter((h) => ids.has(h.id) && h.unread);
			if (refs.length > 0) void setFlagSoon(refs, 'unread', false);
		}, READ_ON_SCROLL_PAUSE_MS);
	};
}
