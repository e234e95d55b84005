/**
 * The open article's sideways swipe to the next or previous article (touch only). The swipe
 * itself is a `SwipePress` (swipe-press.ts: the same threshold, axis and letting-go rules as a
 * row's); what is new here is which article a side means. Reading runs from the start edge: a
 * finger moving toward the start (left in a left-to-right language, right in a right-to-left
 * one) pulls in what comes after, the next article; toward the end, the previous one.
 */
import type { Side } from './swipe-press';

export type Step = 'next' | 'previous';
export type Direction = 'ltr' | 'rtl';

export function stepOf(side: Side, direction: Direction): Step {
	const towardStart = direction === 'rtl' ? side === 'right' : side === 'left';
	return towardStart ? 'next' : 'previous';
}

/** How far (px) the article follows the finger: none where the reader asks for less motion. */
export function followOffset(dx: number, reducedMotion: boolean): number {
	return reducedMotion ? 0 : dx;
}

/** Controls a sideways drag belongs to: a slider (the player's seek bar), a field, media. */
const SIDEWAYS_OWNERS = 'input, textarea, select, audio, video, [contenteditable]';

/**
 * Whether a touch at `target` belongs to something inside `root` that moves sideways itself: a
 * control, or a box that scrolls sideways (a wide table or code block). There the finger is not
 * asking for another article.
 */
export function claimsSideways(target: EventTarget | null, root: Element): boolean {
	if (!(target instanceof Element) || !root.contains(target)) return false;
	if (target.closest(SIDEWAYS_OWNERS)) return true;
	for (let at: Element | null = target; at && at !== root; at = at.parentElement) {
		const overflow = getComputedStyle(at).overflowX;
		if ((overflow === 'auto' || overflow === 'scroll') && at.scrollWidth > at.clientWidth) {
			return true;
		}
	}
	return false;
}
