import { describe, expect, it } from 'vitest';
import { clampView, FIT, MAX_SCALE, panBy, swipeDirection, zoomAt } from './zoom';

const W = 400;
const H = 300;

describe('viewer zoom', () => {
	it('keeps the point under the cursor in place', () => {
		const view = zoomAt(FIT, 2, 100, 50, W, H);
		expect(view.scale).toBe(2);
		// The image point under (100, 50) at scale 1 is (100, 50); at scale 2 it is drawn at 2·p + t.
		expect(2 * 100 + view.x).toBeCloseTo(100);
		expect(2 * 50 + view.y).toBeCloseTo(50);
	});

	it('stays between fit and the maximum, and fit is centred', () => {
		expect(zoomAt(FIT, 0.5, 10, 10, W, H)).toEqual(FIT);
		expect(zoomAt(FIT, 100, 0, 0, W, H).scale).toBe(MAX_SCALE);
		expect(clampView({ scale: 1, x: 40, y: -20 }, W, H)).toEqual(FIT);
	});

	it('cannot pan the image away from the stage', () => {
		const view = panBy({ scale: 2, x: 0, y: 0 }, 10_000, -10_000, W, H);
		expect(view).toEqual({ scale: 2, x: W / 2, y: -H / 2 });
	});

	it('turns a sideways swipe into next/previous, not a tap or a vertical drag', () => {
		expect(swipeDirection(-80, 10)).toBe(1);
		expect(swipeDirection(80, 10)).toBe(-1);
		expect(swipeDirection(20, 0)).toBe(0);
		expect(swipeDirection(80, 90)).toBe(0);
	});
});
