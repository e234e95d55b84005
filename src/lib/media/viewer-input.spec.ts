import { describe, expect, it } from 'vitest';
import { fromCentre, viewerKey, ViewerPointers, wheelFactor, ZOOM_STEP } from './viewer-input';
import { FIT, SWIPE_MIN } from './zoom';

const STAGE = { left: 0, top: 0, width: 400, height: 300 };

describe('the image viewer’s keys', () => {
	it('arrows ask for another image, + = - zoom, 0 fits; other keys are left alone', () => {
		expect(viewerKey('ArrowRight')).toEqual({ go: 1 });
		expect(viewerKey('ArrowLeft')).toEqual({ go: -1 });
		expect(viewerKey('+')).toEqual({ zoom: ZOOM_STEP });
		expect(viewerKey('=')).toEqual({ zoom: ZOOM_STEP });
		expect(viewerKey('-')).toEqual({ zoom: 1 / ZOOM_STEP });
		expect(viewerKey('0')).toEqual({ fit: true });
		expect(viewerKey('Escape')).toBeUndefined();
		expect(viewerKey('a')).toBeUndefined();
	});

	it('a wheel turned down zooms out, up zooms in, not at all without a turn', () => {
		expect(wheelFactor(100)).toBeLessThan(1);
		expect(wheelFactor(-100)).toBeGreaterThan(1);
		expect(wheelFactor(0)).toBe(1);
	});

	it('counts points from the stage’s centre', () => {
		expect(fromCentre({ ...STAGE, left: 10, top: 20 }, { x: 210, y: 170 })).toEqual({ x: 0, y: 0 });
		expect(fromCentre(STAGE, { x: 0, y: 0 })).toEqual({ x: -200, y: -150 });
	});
});

describe('the image viewer’s pointers', () => {
	it('one pointer swiping left across a fitted image asks for the next, right for the previous', () => {
		const pointers = new ViewerPointers();
		pointers.down(1, { x: 300, y: 100 });
		expect(pointers.move(1, { x: 200, y: 100 }, FIT, STAGE)).toBe(FIT);
		expect(pointers.up(1, { x: 300 - SWIPE_MIN - 10, y: 100 }, FIT)).toBe(1);
		pointers.down(2, { x: 100, y: 100 });
		expect(pointers.up(2, { x: 100 + SWIPE_MIN + 10, y: 100 }, FIT)).toBe(-1);
	});

	it('a short move, or a swipe on a zoomed image, turns no page', () => {
		const pointers = new ViewerPointers();
		pointers.down(1, { x: 300, y: 100 });
		expect(pointers.up(1, { x: 300 - SWIPE_MIN + 10, y: 100 }, FIT)).toBe(0);
		const zoomed = { scale: 2, x: 0, y: 0 };
		pointers.down(1, { x: 300, y: 100 });
		expect(pointers.up(1, { x: 100, y: 100 }, zoomed)).toBe(0);
	});

	it('one pointer pans a zoomed image, within its bounds', () => {
		const pointers = new ViewerPointers();
		pointers.down(1, { x: 200, y: 150 });
		const view = pointers.move(1, { x: 230, y: 140 }, { scale: 2, x: 0, y: 0 }, STAGE);
		expect(view).toEqual({ scale: 2, x: 30, y: -10 });
		// Far past the edge: held at it (zoom.ts clampView: half the extra width).
		expect(pointers.move(1, { x: 5000, y: 140 }, view, STAGE).x).toBe(200);
	});

	it('two pointers moving apart zoom in by their distance’s ratio, a second swipe finger turns no page', () => {
		const pointers = new ViewerPointers();
		pointers.down(1, { x: 150, y: 150 });
		pointers.down(2, { x: 250, y: 150 });
		const view = pointers.move(2, { x: 350, y: 150 }, FIT, STAGE);
		expect(view.scale).toBeCloseTo(2);
		expect(pointers.up(2, { x: 350, y: 150 }, view)).toBe(0);
		expect(pointers.up(1, { x: 0, y: 150 }, FIT)).toBe(0);
	});

	it('a pointer it never saw go down moves nothing', () => {
		const pointers = new ViewerPointers();
		expect(pointers.holds(7)).toBe(false);
		expect(pointers.move(7, { x: 1, y: 1 }, { scale: 2, x: 0, y: 0 }, STAGE)).toEqual({
			scale: 2,
			x: 0,
			y: 0
		});
		expect(pointers.up(7, { x: 1, y: 1 }, FIT)).toBe(0);
	});
});
