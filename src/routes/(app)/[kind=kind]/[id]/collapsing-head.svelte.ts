/**
 * The phone's list head hides while the list scrolls down, and is back on the way up
 * (gestures/collapse.ts; a transform, see the layout's style). Never while focus is in it.
 */
import { collapseOnScroll, SHOWN } from '$lib/gestures/collapse';

export class CollapsingHead {
	#state = $state(SHOWN);
	/** The head's height, bound by the layout: the pane moves up by as much. */
	height = $state(0);

	get collapsed(): boolean {
		return this.#state.collapsed;
	}

	/** The reader's own scrolling of the list moves the head. */
	scrolled(top: number): void {
		this.#state = collapseOnScroll(this.#state, top);
	}

	/** Focus in the head shows it. */
	readonly focused = (): void => {
		this.#state = { ...this.#state, collapsed: false };
	};
}
