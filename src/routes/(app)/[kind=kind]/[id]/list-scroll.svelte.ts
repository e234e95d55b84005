/**
 * The list's scroll (state/resume.ts): a start at this list goes back to the headline it left at;
 * while the list is sought, its own scrolling is not the reader's. Once the reader scrolls, each
 * position is written for the next start, and moves the phone's head (collapsing-head.svelte.ts).
 * Made once by the list's layout, while it is set up.
 */
import { untrack } from 'svelte';
import type { Headline } from '$lib/api';
import type { RowOffsets } from '$lib/components/row-offsets';
import { headlines } from '$lib/state/headlines.svelte';
import { anchorAt, resumeWriter, seekStep, type ListAnchor } from '$lib/state/resume';
import type { CollapsingHead } from './collapsing-head.svelte';

export interface ListScrollOptions {
	/** Where a start left the list, if this start goes back to it. */
	anchor: ListAnchor | undefined;
	rows: () => Headline[];
	layout: () => RowOffsets;
	head: CollapsingHead;
	/** True while a search is shown: its position would not be found at the next start. */
	searching: () => boolean;
}

export class ListScroll {
	/** The virtual list, bound by the layout. */
	list = $state<{ scrollToOffset(top: number): boolean }>();
	#seeking = $state<ListAnchor | undefined>();
	#pagesAsked = 0;
	/** The offset a hidden list scrolls to once shown (VirtualList keeps it); till then, kept. */
	#parked: number | undefined;
	#top = 0;

	constructor(private readonly options: ListScrollOptions) {
		this.#seeking = options.anchor;

		$effect(() => {
			const anchor = this.#seeking;
			if (!anchor) return;
			const step = seekStep(
				{
					items: options.rows(),
					loading: headlines.loading,
					complete: headlines.complete,
					error: headlines.error,
					answered: headlines.answered
				},
				anchor,
				this.#pagesAsked
			);
			untrack(() => {
				if (step.type === 'scroll') {
					const top = options.layout().top(step.index) + step.offset;
					if (step.final) this.#seeking = undefined;
					// After the list's own effects (it keeps the open article's row in view).
					queueMicrotask(() => {
						const applied = this.list?.scrollToOffset(top) ?? false;
						// A phone with the article open hides the list: its place waits for the way back.
						if (step.final && !applied) this.#parked = top;
					});
				} else if (step.type === 'more') {
					this.#pagesAsked++;
					void headlines.loadMore();
				} else if (step.type === 'give-up') {
					this.list?.scrollToOffset(0);
					this.#seeking = undefined;
				}
			});
		});

		// Rows added or dropped above the top edge (a refresh, a page) change which headline is there.
		$effect(() => {
			void options.rows();
			untrack(() => {
				if (this.#top > 0) this.scrolled(this.#top);
			});
		});
	}

	/** The list's scroll offset, as last told. */
	get top(): number {
		return this.#top;
	}

	/** The reader's own hand on the list ends a start's search for its old place. */
	readonly stopSeeking = (): void => {
		this.#seeking = undefined;
	};

	/** The list scrolled to `top`. */
	readonly scrolled = (top: number): void => {
		this.#top = top;
		// Not while a start seeks its place, nor while a hidden list waits for it (phone).
		if (this.#seeking) return;
		// The reader's own scrolling moves the head (a start's search for its place does not).
		this.options.head.scrolled(top);
		if (this.#parked !== undefined) {
			if (Math.abs(top - this.#parked) > 1) return;
			this.#parked = undefined;
		}
		// A search is not kept across a start: its position would not be found.
		const { layout, rows } = this.options;
		resumeWriter.listScrolled(
			this.options.searching() ? undefined : anchorAt(top, layout(), (i) => rows()[i]?.id)
		);
	};
}
