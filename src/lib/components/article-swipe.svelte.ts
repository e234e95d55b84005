/**
 * On touch, a sideways swipe on the article goes to the next or previous article
 * (gestures/page-swipe.ts): the article follows the finger (not with reduced motion) and goes when
 * let go past the threshold. ArticleView.svelte puts `attachment` on its element and moves what
 * follows the finger by `dx`.
 */
import type { Attachment } from 'svelte/attachments';
import { claimsSideways, followOffset, stepOf, type Direction } from '$lib/gestures/page-swipe';
import { SwipePress, swipePress, tick, type Side } from '$lib/gestures/swipe-press';

export interface ArticleSwipeOptions {
	/** The article's element (its writing direction says which side is "next"). */
	element: () => HTMLElement | undefined;
	/** The article one step away now, if any. */
	next: () => number | undefined;
	previous: () => number | undefined;
	/** Opens that article. */
	go: (id: number) => void;
}

const reducedMotion =
	typeof matchMedia === 'function' ? matchMedia('(prefers-reduced-motion: reduce)') : undefined;

export class ArticleSwipe {
	/** How far what follows the finger is moved (px), and whether a finger is on it. */
	dx = $state(0);
	swiping = $state(false);
	readonly attachment: Attachment<HTMLElement>;

	constructor(options: ArticleSwipeOptions) {
		const direction = (): Direction => {
			const element = options.element();
			return element && getComputedStyle(element).direction === 'rtl' ? 'rtl' : 'ltr';
		};
		const targetOf = (side: Side): number | undefined =>
			stepOf(side, direction()) === 'next' ? options.next() : options.previous();
		const machine = new SwipePress({
			threshold: 80,
			max: 120,
			canSwipe: (side) => targetOf(side) !== undefined,
			onSwipe: (side) => {
				const target = targetOf(side);
				if (target !== undefined) options.go(target);
			},
			onChange: (state) => {
				this.dx = followOffset(state.dx, reducedMotion?.matches === true);
				this.swiping = state.swiping;
			},
			onArm: tick
		});
		this.attachment = swipePress(machine, { touchOnly: true, ignore: claimsSideways });
	}
}
