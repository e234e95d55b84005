/**
 * The image viewer's zoom and pan as plain numbers, so pinch, wheel, keys and double-tap share one
 * rule and it is unit-tested. The image is drawn with `translate(x, y) scale(scale)` around the
 * stage's centre; x and y are in CSS pixels, the point (cx, cy) is relative to that centre.
 */

export interface View {
	scale: number;
	x: number;
	y: number;
}

export const MIN_SCALE = 1;
export const MAX_SCALE = 8;
export const FIT: View = { scale: 1, x: 0, y: 0 };

/** Keeps the scale in range and the image covering the stage (no panning into emptiness). */
export function clampView(view: View, width: number, height: number): View {
	const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, view.scale));
	if (scale === MIN_SCALE) return FIT;
	const maxX = (width * (scale - 1)) / 2;
	const maxY = (height * (scale - 1)) / 2;
	const clamp = (v: number, max: number): number => Math.min(max, Math.max(-max, v));
	return { scale, x: clamp(view.x, maxX), y: clamp(view.y, maxY) };
}

/** Zooms by `factor` keeping the point (cx, cy) under the same spot (pinch centre, cursor). */
export function zoomAt(
	view: View,
	factor: number,
	cx: number,
	cy: number,
	width: number,
	height: number
): View {
	const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, view.scale * factor));
	const ratio = scale / view.scale;
	return clampView(
		{ scale, x: cx - (cx - view.x) * ratio, y: cy - (cy - view.y) * ratio },
		width,
		height
	);
}

export function panBy(view: View, dx: number, dy: number, width: number, height: number): View {
	return clampView({ ...view, x: view.x + dx, y: view.y + dy }, width, height);
}

/** A horizontal swipe of at least this many pixels (and more sideways than down) turns the page. */
export const SWIPE_MIN = 50;

/** -1 (previous), 1 (next) or 0 for a one-finger move of (dx, dy) at fit scale. */
export function swipeDirection(dx: number, dy: number): -1 | 0 | 1 {
	if (Math.abs(dx) < SWIPE_MIN || Math.abs(dx) < Math.abs(dy) * 1.5) return 0;
	return dx < 0 ? 1 : -1;
}
