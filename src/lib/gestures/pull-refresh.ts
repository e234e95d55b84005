/**
 * Pull to refresh on a list (touch): a finger that goes down on a list scrolled to its top and
 * moves down pulls a marker after it (damped, up to `max`); let go past `threshold`, the list
 * refreshes. A move that is first sideways (a row's swipe) or up (a scroll) is not a pull for the
 * rest of that touch. `PullRefresh` is the state machine alone (fed positions, unit-tested);
 * `pullRefresh` is the attachment that feeds it an element's touch events (touch events, not
 * pointer events: the browser's own scroll of the list cancels pointer events, not touches).
 */
import type { Attachment } from 'svelte/attachments';
import { isHorizontal, PRESS_SLOP } from './swipe-press';

export interface PullState {
	/** How far (px) the marker has come down. */
	pull: number;
	/** Letting go now refreshes. */
	armed: boolean;
}

export interface PullRefreshOptions {
	threshold?: number;
	max?: number;
	/** Whether the list is at its top (a pull starts only there). */
	atTop: () => boolean;
	onRefresh: () => void;
	onChange?: (state: PullState) => void;
}

/** The finger's way is damped: the marker comes half as far. */
const DAMPING = 0.5;

export class PullRefresh {
	readonly threshold: number;
	readonly max: number;
	private start: { x: number; y: number; id: number } | undefined;
	/** Decided for this touch: a pull, or not one. */
	private mode: 'undecided' | 'pull' | 'other' = 'undecided';
	private state: PullState = { pull: 0, armed: false };

	constructor(readonly options: PullRefreshOptions) {
		this.threshold = options.threshold ?? 64;
		this.max = options.max ?? 96;
	}

	get current(): PullState {
		return this.state;
	}

	down(x: number, y: number, id: number): void {
		this.reset();
		this.start = { x, y, id };
		this.mode = this.options.atTop() ? 'undecided' : 'other';
	}

	/** Returns true while the touch is a pull (the caller may keep the browser's overscroll off). */
	move(x: number, y: number, id: number): boolean {
		if (!this.start || id !== this.start.id || this.mode === 'other') return false;
		const mx = x - this.start.x;
		const my = y - this.start.y;
		if (this.mode === 'undecided') {
			if (Math.abs(mx) <= PRESS_SLOP && Math.abs(my) <= PRESS_SLOP) return false;
			if (my <= 0 || isHorizontal(mx, my) || Math.abs(mx) > my) {
				this.mode = 'other';
				return false;
			}
			this.mode = 'pull';
		}
		const pull = Math.max(0, Math.min(this.max, (my - PRESS_SLOP) * DAMPING));
		this.set({ pull, armed: pull >= this.threshold });
		return true;
	}

	/** The finger lifts: past the threshold, the list refreshes. */
	up(id: number): boolean {
		if (!this.start || id !== this.start.id) return false;
		const act = this.mode === 'pull' && this.state.armed;
		this.reset();
		if (act) this.options.onRefresh();
		return act;
	}

	cancel(): void {
		this.reset();
	}

	private reset(): void {
		this.start = undefined;
		this.mode = 'undecided';
		if (this.state.pull !== 0 || this.state.armed) this.set({ pull: 0, armed: false });
	}

	private set(state: PullState): void {
		this.state = state;
		this.options.onChange?.(state);
	}
}

/** The attachment: an element's touches into a `PullRefresh`. */
export function pullRefresh(machine: PullRefresh): Attachment<HTMLElement> {
	return (node) => {
		const touchOf = (event: TouchEvent): Touch | undefined => event.changedTouches[0];
		const start = (event: TouchEvent): void => {
			const touch = touchOf(event);
			if (event.touches.length !== 1 || !touch) return machine.cancel();
			machine.down(touch.clientX, touch.clientY, touch.identifier);
		};
		const move = (event: TouchEvent): void => {
			const touch = touchOf(event);
			if (touch) machine.move(touch.clientX, touch.clientY, touch.identifier);
		};
		const end = (event: TouchEvent): void => {
			const touch = touchOf(event);
			if (touch) machine.up(touch.identifier);
		};
		const cancel = (): void => machine.cancel();
		const passive = { passive: true };
		node.addEventListener('touchstart', start, passive);
		node.addEventListener('touchmove', move, passive);
		node.addEventListener('touchend', end, passive);
		node.addEventListener('touchcancel', cancel, passive);
		return () => {
			machine.cancel();
			node.removeEventListener('touchstart', start);
			node.removeEventListener('touchmove', move);
			node.removeEventListener('touchend', end);
			node.removeEventListener('touchcancel', cancel);
		};
	};
}
