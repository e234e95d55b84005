/**
 * "Mark read while scrolling": the unread rows that scrolled past the top of the headline list are
 * marked read, in one batch once the scrolling pauses, so a fling past fifty rows is one change in
 * the outbox rather than fifty. Rows the muted words hide are not among them: the reader never saw
 * them, and whether hidden rows are marked read is the muted words' own setting ("also mark them
 * read", state/mark-muted-read.ts).
 */
import { mute } from '$lib/mute/mute.svelte';
import { settleTimer } from '$lib/timing/settle';
import { setFlagSoon } from './actions-soon';
import { headlines } from './headlines.svelte';
import { settings } from './settings.svelte';
import { shownRows } from './shown-rows.svelte';

/** How long the list must rest before the rows scrolled past are marked. */
export const READ_ON_SCROLL_PAUSE_MS = 500;

/**
 * Returns the handler for the list's "the shown rows before this index have scrolled past"
 * (indexes of `shownRows.rows`; the rows it covers are `shownRows.passed`, the copies of a story
 * go with its row through setFlag).
 */
export function readOnScroll(): (shownBefore: number) => void {
	const scrolledPast = new Set<number>();
	const flush = settleTimer(
		() => {
			const ids = new Set(scrolledPast);
			scrolledPast.clear();
			// Read again: a row marked by hand meanwhile is not marked a second time.
			const refs = headlines.items.filter((h) => ids.has(h.id) && h.unread);
			if (refs.length > 0) void setFlagSoon(refs, 'unread', false);
		},
		{ quietMs: READ_ON_SCROLL_PAUSE_MS }
	);
	return (shownBefore) => {
		if (!settings.values.markReadOnScroll) return;
		// Hidden rows the reader asked to see are rows like any other.
		const hidden = new Set(mute.showHidden ? [] : shownRows.muted.hidden.map((h) => h.id));
		for (const h of shownRows.passed(shownBefore)) {
			if (h.unread && !hidden.has(h.id)) scrolledPast.add(h.id);
		}
		flush.changed();
	};
}
