/**
 * A row's touch gestures, apart from any row: a horizontal swipe to either side (it follows the
 * finger, is "armed" past a threshold and acts when let go) and a long press (touch or pen; a mouse
 * has Ctrl/Shift-click) that acts once the finger has stayed put long enough. Any move first (a
 * swipe, a scroll) is not a long press; a vertical move is the browser's scroll, not a swipe.
 *
 * `SwipePress` is the state machine alone (no DOM: fed positions and times, unit-tested);
 * `swipePress` is the Svelte attachment that feeds it a row's pointer events.
 */
import type { Attachment } from 'svelte/attachments';

export type Side = 'left' | 'right';

export interface SwipePressOptions {
	/** How far (px) a swipe must go before letting go acts. */
	threshold?: number;
	/** How far (px) the row follows the finger at most. */
	max?: number;
	longPressMs?: number;
	/** A side set to do nothing does not move. */
	canSwipe: (side: Side) => boolean;
	/** Acts on a swipe let go past the threshold. */
	onSwipe: (side: Side) => void;
	/** Whether a press here may become a long press (its target, its pointer type). */
	canLongPress?: (target: EventTarget | null, pointerType: string) => boolean;
	onLongPress?: () => void;
	/** The row's offset, whether it is being swiped, and whether letting go would act. */
	onChange?: (state: SwipeState) => void;
	/** Letting go would act now (or would not any more): a tick where the device can. */
	onArm?: (armed: boolean) => void;
	/** Before any press (e.g. to load what a swipe does). */
	onPress?: () => void;
}

export interface SwipeState {
	dx: number;
	swiping: boolean;
	armed: boolean;
}

export interface Timers {
	set: (run: () => void, ms: number) => unknown;
	clear: (handle: unknown) => void;
}

const realTimers: Timers = {
	set: (run, ms) => setTimeout(run, ms),
	clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>)
};

/** Below this a move is a tremble (a press stays a press); past it in x, a swipe may start. */
export const PRESS_SLOP = 10;
const SWIPE_START = 12;

/**
 * Whether a move so far (from where the finger went down) is a sideways swipe rather than a
 * scroll: far enough in x, and clearly more across than down. Every gesture of the app asks this.
 */
export function isHorizontal(mx: number, my: number): boolean {
	return Math.abs(mx) >= SWIPE_START && Math.abs(mx) >= Math.abs(my) * 1.5;
}

export class SwipePress {
	readonly threshold: number;
	readonly max: number;
	readonly longPressMs: number;
	private start: { x: number; y: number; id: number } | undefined;
	private timer: unknown;
	private state: SwipeState = { dx: 0, swiping: false, armed: false };
	/** The click that ends a swipe or a long press must not open the row. */
	private suppress = false;
	/** A long press acted during this press. */
	pressed = false;

	constructor(
		readonly options: SwipePressOptions,
		private readonly timers: Timers = realTimers
	) {
		this.threshold = options.threshold ?? 72;
		this.max = options.max ?? 140;
		this.longPressMs = options.longPressMs ?? 500;
	}

	get current(): SwipeState {
		return this.state;
	}

	/** A long press is under way or has acted: the browser's own menu would cover it. */
	get holding(): boolean {
		return this.pressed || this.timer !== undefined;
	}

	down(x: number, y: number, id: number, longPress: boolean): void {
		this.options.onPress?.();
		this.start = { x, y, id };
		this.suppress = false;
		this.pressed = false;
		this.endPress();
		if (longPress && this.options.onLongPress) {
			const act = this.options.onLongPress;
			this.timer = this.timers.set(() => {
				this.timer = undefined;
				this.pressed = true;
				this.suppress = true;
				act();
			}, this.longPressMs);
		}
	}

	/** Returns true when this move starts a swipe (the caller captures the pointer). */
	move(x: number, y: number, id: number): boolean {
		if (!this.start || id !== this.start.id) return false;
		const mx = x - this.start.x;
		const my = y - this.start.y;
		if (Math.abs(mx) > PRESS_SLOP || Math.abs(my) > PRESS_SLOP) this.endPress();
		let started = false;
		if (!this.state.swiping) {
			if (!isHorizontal(mx, my)) return false;
			started = true;
		}
		const side: Side = mx < 0 ? 'left' : 'right';
		const dx = this.options.canSwipe(side) ? Math.max(-this.max, Math.min(this.max, mx)) : 0;
		const armed = Math.abs(dx) >= this.threshold;
		if (armed !== this.state.armed) this.options.onArm?.(armed);
		this.set({ dx, swiping: true, armed });
		return started;
	}

	/** The finger lifts: a swipe past the threshold acts. */
	up(id: number): Side | undefined {
		if (!this.start || id !== this.start.id) return undefined;
		let acted: Side | undefined;
		if (this.state.swiping) {
			this.suppress = true;
			const { dx } = this.state;
			if (dx <= -this.threshold) acted = 'left';
			else if (dx >= this.threshold) acted = 'right';
		}
		this.cancel();
		if (acted) this.options.onSwipe(acted);
		return acted;
	}

	cancel(): void {
		this.endPress();
		this.start = undefined;
		if (this.state.dx !== 0 || this.state.swiping || this.state.armed) {
			this.set({ dx: 0, swiping: false, armed: false });
		}
	}

	/** Whether the click now arriving ends a gesture (and must not act); asks once. */
	takeClick(): boolean {
		const was = this.suppress;
		this.suppress = false;
		return was;
	}

	private endPress(): void {
		if (this.timer !== undefined) this.timers.clear(this.timer);
		this.timer = undefined;
	}

	private set(state: SwipeState): void {
		this.state = state;
		this.options.onChange?.(state);
	}
}

/**
 * Until when a click is the end of a long press. The selection bar then appears above the list and
 * moves the rows: that click may land on another row, which must not act on it. Only the one
 * click, and only just after the finger lifts. Shared by every row.
 */
let swallowClickUntil = -Infinity;

/** Whether a click on any row is to be swallowed (a long press just ended); asks once. */
export function swallowClick(machine: SwipePress): boolean {
	const swallow = machine.takeClick() || performance.now() < swallowClickUntil;
	if (swallow) swallowClickUntil = -Infinity;
	return swallow;
}

/**
 * The attachment: an element's pointer events into a `SwipePress` (given, so the element can ask
 * it). `touchOnly`: a mouse's drag is not a swipe there (it selects text, as on an article);
 * `ignore`: presses that belong to something inside.
 */
export function swipePress(
	machine: SwipePress,
	{
		touchOnly = false,
		ignore
	}: {
		touchOnly?: boolean;
		/** A press here is not the gesture's (a control inside that moves sideways itself). */
		ignore?: (target: EventTarget | null, node: HTMLElement) => boolean;
	} = {}
): Attachment<HTMLElement> {
	return (node) => {
		const down = (event: PointerEvent): void => {
			if (event.button !== 0) return;
			if (touchOnly && event.pointerType === 'mouse') return;
			if (ignore?.(event.target, node)) return machine.cancel();
			const longPress =
				event.pointerType !== 'mouse' &&
				(machine.options.canLongPress?.(event.target, event.pointerType) ?? true);
			machine.down(event.clientX, event.clientY, event.pointerId, longPress);
		};
		const move = (event: PointerEvent): void => {
			if (machine.move(event.clientX, event.clientY, event.pointerId)) {
				try {
					node.setPointerCapture(event.pointerId);
				} catch {
					// The pointer is gone already (or was never a real one): the swipe goes on uncaptured.
				}
			}
		};
		const up = (event: PointerEvent): void => void machine.up(event.pointerId);
		const cancel = (): void => machine.cancel();
		const contextMenu = (event: MouseEvent): void => {
			// The browser's own long-press menu would cover the selection just made.
			if (machine.holding) event.preventDefault();
		};
		node.addEventListener('pointerdown', down);
		node.addEventListener('pointermove', move);
		node.addEventListener('pointerup', up);
		node.addEventListener('pointercancel', cancel);
		node.addEventListener('contextmenu', contextMenu);
		return () => {
			machine.cancel();
			node.removeEventListener('pointerdown', down);
			node.removeEventListener('pointermove', move);
			node.removeEventListener('pointerup', up);
			node.removeEventListener('pointercancel', cancel);
			node.removeEventListener('contextmenu', contextMenu);
		};
	};
}

/** After a long press: the click that the finger's lift makes is swallowed wherever it lands. */
export function swallowNextLift(): void {
	const lifted = (): void => void (swallowClickUntil = performance.now() + 400);
	window.addEventListener('pointerup', lifted, { once: true, capture: true });
}

/** A tick where the device can; not allowed yet (no user activation) is no matter. */
export function tick(armed: boolean): void {
	if (typeof navigator === 'undefined' || !('vibrate' in navigator)) return;
	try {
		navigator.vibrate(armed ? 12 : 6);
	} catch {
		// The colour says it.
	}
}
