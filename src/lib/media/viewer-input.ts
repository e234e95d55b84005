/**
 * What the image viewer (components/ImageViewer.svelte) makes of the reader's keys and pointers:
 * pure bookkeeping over zoom.ts's views, so the dialog only draws and asks for another image.
 * Pointer events cover mouse, pen and touch alike: two pointers pinch, one pans a zoomed image or
 * swipes a fitted one to the next.
 */
import { panBy, swipeDirection, zoomAt, type View } from './zoom';

/** One press of + or − (and the buttons) zooms by this factor. */
export const ZOOM_STEP = 1.5;
/** A double click or tap on a fitted image zooms this far. */
export const DOUBLE_TAP_ZOOM = 2.5;

export type ViewerKey = { go: -1 | 1 } | { zoom: number } | { fit: true };

/** The viewer's keys (arrows, +, =, -, 0); undefined for a key it leaves alone. */
export function viewerKey(key: string): ViewerKey | undefined {
	switch (key) {
		case 'ArrowRight':
			return { go: 1 };
		case 'ArrowLeft':
			return { go: -1 };
		case '+':
		case '=':
			return { zoom: ZOOM_STEP };
		case '-':
			return { zoom: 1 / ZOOM_STEP };
		case '0':
			return { fit: true };
		default:
			return undefined;
	}
}

/** Zoom by a wheel's turn: scrolling down zooms out, smoothly at any wheel's step. */
export function wheelFactor(deltaY: number): number {
	return Math.exp(-deltaY * 0.002);
}

export interface Point {
	x: number;
	y: number;
}

/** The stage: its box on the screen (for the centre) and its drawn size (for the bounds). */
export interface Stage {
	left: number;
	top: number;
	width: number;
	height: number;
}

/** A point of the stage relative to its centre, as zoom.ts counts. */
export function fromCentre(stage: Stage, at: Point): Point {
	return { x: at.x - stage.left - stage.width / 2, y: at.y - stage.top - stage.height / 2 };
}

/** The pointers on the stage and what their moves do to the view. */
export class ViewerPointers {
	readonly #pointers = new Map<number, Point>();
	#start: Point | undefined;
	#pinchDistance = 0;

	#distance(): number {
		const [a, b] = [...this.#pointers.values()];
		return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
	}

	/** Whether pointer `id` went down on the stage and is still there. */
	holds(id: number): boolean {
		return this.#pointers.has(id);
	}

	down(id: number, at: Point): void {
		this.#pointers.set(id, at);
		this.#start = this.#pointers.size === 1 ? at : undefined;
		this.#pinchDistance = this.#distance();
	}

	/** The view after a pointer moved: pinched about the fingers' middle, or panned. */
	move(id: number, at: Point, view: View, stage: Stage): View {
		const before = this.#pointers.get(id);
		if (!before) return view;
		this.#pointers.set(id, at);
		if (this.#pointers.size === 2) {
			const d = this.#distance();
			const [a, b] = [...this.#pointers.values()];
			const was = this.#pinchDistance;
			this.#pinchDistance = d;
			if (was > 0 && d > 0 && a && b) {
				const mid = fromCentre(stage, { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
				return zoomAt(view, d / was, mid.x, mid.y, stage.width, stage.height);
			}
			return view;
		}
		if (this.#pointers.size === 1 && view.scale > 1) {
			return panBy(view, at.x - before.x, at.y - before.y, stage.width, stage.height);
		}
		return view;
	}

	/**
	 * A pointer left (or was cancelled): the step to another image when a single pointer swiped
	 * across a fitted image, else 0.
	 */
	up(id: number, at: Point, view: View): -1 | 0 | 1 {
		if (!this.#pointers.delete(id)) return 0;
		let step: -1 | 0 | 1 = 0;
		if (this.#start && this.#pointers.size === 0 && view.scale === 1) {
			step = swipeDirection(at.x - this.#start.x, at.y - this.#start.y);
		}
		this.#start = undefined;
		this.#pinchDistance = this.#distance();
		return step;
	}
}
