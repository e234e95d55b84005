/**
 * The open article's scroll (state/resume.ts): written as the reader scrolls the article pane, and
 * brought back at a start once the article's body is on screen. What is still to come (its row's
 * tags, images) may make it taller: tried again as it grows, for a few seconds, until the reader
 * scrolls. Made once by the list's layout, while it is set up.
 */
import { articleState } from '$lib/state/article.svelte';
import { resumeWriter } from '$lib/state/resume';

const READER_HANDS = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/** How long a start keeps putting the article back at its place while it grows. */
const RESTORE_FOR_MS = 8000;

export class ArticleScroll {
	/** The article pane, bound by the layout. */
	pane = $state<HTMLElement>();
	/** The scroll a start brings back, until done. */
	#restoring: number | undefined;
	readonly #shown = $derived(articleState.article?.id);

	constructor(
		restoring: number | undefined,
		private readonly currentArticle: () => number | undefined
	) {
		this.#restoring = restoring;

		$effect(() => {
			const pane = this.pane;
			const shown = this.#shown;
			if (
				this.#restoring === undefined ||
				!pane ||
				shown === undefined ||
				shown !== currentArticle()
			) {
				return;
			}
			const target = this.#restoring;
			const apply = (): void => {
				pane.scrollTop = target;
				if (Math.abs(pane.scrollTop - target) <= 1) done();
			};
			const resized = new ResizeObserver(apply);
			const observeAll = (): void => {
				for (const element of pane.querySelectorAll('*')) resized.observe(element);
				apply();
			};
			const added = new MutationObserver(observeAll);
			const stop = (): void => {
				resized.disconnect();
				added.disconnect();
				clearTimeout(timer);
				for (const type of READER_HANDS) pane.removeEventListener(type, done);
			};
			const done = (): void => {
				this.#restoring = undefined;
				stop();
			};
			const timer = setTimeout(done, RESTORE_FOR_MS);
			for (const type of READER_HANDS) pane.addEventListener(type, done, { passive: true });
			added.observe(pane, { childList: true, subtree: true });
			requestAnimationFrame(observeAll);
			// Re-run by another article (or none): that one is not the start's.
			return () => {
				if (this.#restoring !== undefined) done();
			};
		});
	}

	/** The pane scrolled: written for the next start, unless a start is still bringing it back. */
	readonly scrolled = (): void => {
		if (this.currentArticle() !== undefined && this.pane && this.#restoring === undefined) {
			resumeWriter.articleScrolled(this.pane.scrollTop);
		}
	};
}
