/**
 * The rows the list screen shows and where they sit. Muted words (src/lib/mute) hide rows, and a
 * story in several feeds is shown once (src/lib/dedupe), on the device: online and offline lists
 * alike (state/shown-rows.svelte.ts). `rows` is what the list shows: its indexes are the list's,
 * not `headlines.items`'. Made once by the list's layout, while it is set up.
 */
import type { Headline } from '$lib/api';
import { ROW_HEIGHTS, rowHeightOf } from '$lib/components/row-heights';
import { rowOffsets, uniformOffsets, type RowOffsets } from '$lib/components/row-offsets';
import { mute } from '$lib/mute/mute.svelte';
import { markOnce } from '$lib/perf/marks';
import { headlines } from '$lib/state/headlines.svelte';
import { session } from '$lib/state/session.svelte';
import { settings } from '$lib/state/settings.svelte';
import { shownRows } from '$lib/state/shown-rows.svelte';

export class ListRows {
	readonly muted = $derived(shownRows.muted);
	readonly rows: Headline[] = $derived(shownRows.rows);

	/**
	 * Where the rows sit, by the reader's density (Settings): one height, but cards, where a card
	 * without an image is a shorter text card (row-heights.ts).
	 */
	readonly layout: RowOffsets = $derived.by(() => {
		const density = settings.values.density;
		return density === 'cards'
			? rowOffsets(this.rows.map((headline) => rowHeightOf(density, headline, session.imageProxy)))
			: uniformOffsets(this.rows.length, ROW_HEIGHTS[density]);
	});

	/** The open article's row, kept on screen (j/k, next/previous); -1 for none. */
	readonly activeIndex: number = $derived.by(() => {
		const current = this.currentArticle();
		return current === undefined ? -1 : this.rows.findIndex((h) => h.id === current);
	});

	constructor(private readonly currentArticle: () => number | undefined) {
		$effect(() => {
			void mute.load(session.account);
		});
		$effect(() => {
			if (mute.settings.markRead) {
				const hidden = this.muted.hidden;
				void import('$lib/state/mark-muted-read').then(({ markMutedRead }) =>
					markMutedRead(hidden)
				);
			}
		});
		// For npm run bench: the first frame in which a headline row is on screen.
		$effect(() => {
			if (headlines.items.length > 0) requestAnimationFrame(() => markOnce('app:first-headline'));
		});
	}

	/** The other feeds a story shown once is in (its copies' feeds, each once, not its own). */
	alsoIn(headline: Headline): string[] {
		if (!shownRows.groups.copies.has(headline.id)) return [];
		return shownRows.copyFeeds(headline.id);
	}
}
