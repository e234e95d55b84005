/**
 * A phone list's head hides while the list scrolls down and comes back as soon as it scrolls up
 * (or reaches its top), as native readers do. Moves smaller than `slop` (a finger's tremble, the
 * list's own small corrections) change nothing. Pure: fed scroll offsets, unit-tested.
 */
export interface CollapseState {
	/** The offset the last decision was taken at. */
	top: number;
	collapsed: boolean;
}

export const SHOWN: CollapseState = { top: 0, collapsed: false };

export function collapseOnScroll(previous: CollapseState, top: number, slop = 8): CollapseState {
	if (top <= 0) return { top: 0, collapsed: false };
	const moved = top - previous.top;
	if (Math.abs(moved) < slop) return previous;
	return { top, collapsed: moved > 0 };
}
