import { describe, expect, it, vi } from 'vitest';
import { SwipePress, type Side, type SwipePressOptions, type Timers } from './swipe-press';

/** Timers run by hand: a long press is a time passing, not a sleep. */
function manualTimers(): Timers & { runAll(): void; pending(): number } {
	const waiting = new Map<number, () => void>();
	let next = 0;
	return {
		set: (run) => {
			waiting.set(++next, run);
			return next;
		},
		clear: (handle) => void waiting.delete(handle as number),
		runAll: () => {
			for (const [key, run] of [...waiting]) {
				waiting.delete(key);
				run();
			}
		},
		pending: () => waiting.size
	};
}

function machine(overrides: Partial<SwipePressOptions> = {}) {
	const swiped: Side[] = [];
	const timers = manualTimers();
	const options: SwipePressOptions = {
		canSwipe: () => true,
		onSwipe: (side) => swiped.push(side),
		onLongPress: vi.fn(),
		...overrides
	};
	return { m: new SwipePress(options, timers), swiped, timers, options };
}

describe('SwipePress', () => {
	it('acts on a swipe let go past the threshold, to the side it went, and swallows its click', () => {
		const { m, swiped } = machine();
		m.down(100, 10, 1, false);
		expect(m.move(60, 12, 1)).toBe(true);
		expect(m.current).toEqual({ dx: -40, swiping: true, armed: false });
		m.move(20, 12, 1);
		expect(m.current.armed).toBe(true);
		expect(m.up(1)).toBe('left');
		expect(swiped).toEqual(['left']);
		expect(m.current).toEqual({ dx: 0, swiping: false, armed: false });
		expect(m.takeClick()).toBe(true);
		expect(m.takeClick()).toBe(false);

		m.down(0, 0, 2, false);
		m.move(90, 0, 2);
		expect(m.up(2)).toBe('right');
		expect(swiped).toEqual(['left', 'right']);
	});

	it('does nothing for a swipe let go short of the threshold, but still swallows its click', () => {
		const { m, swiped } = machine();
		m.down(0, 0, 1, false);
		m.move(50, 0, 1);
		expect(m.up(1)).toBeUndefined();
		expect(swiped).toEqual([]);
		expect(m.takeClick()).toBe(true);
	});

	it('leaves a mostly vertical move to the scroll, and a tap is a click', () => {
		const { m, swiped } = machine();
		m.down(0, 0, 1, false);
		expect(m.move(14, 40, 1)).toBe(false);
		expect(m.current.swiping).toBe(false);
		m.up(1);
		expect(swiped).toEqual([]);
		expect(m.takeClick()).toBe(false);
	});

	it('clamps the row to the most it may move and keeps a side that does nothing still', () => {
		const { m } = machine({ canSwipe: (side) => side === 'right' });
		m.down(0, 0, 1, false);
		m.move(400, 0, 1);
		expect(m.current.dx).toBe(140);
		m.move(-200, 0, 1);
		expect(m.current).toEqual({ dx: 0, swiping: true, armed: false });
		expect(m.up(1)).toBeUndefined();
	});

	it('tells when letting go would act, and when it would not any more', () => {
		const armed: boolean[] = [];
		const { m } = machine({ onArm: (a) => armed.push(a) });
		m.down(0, 0, 1, false);
		m.move(30, 0, 1);
		m.move(80, 0, 1);
		m.move(100, 0, 1);
		m.move(30, 0, 1);
		expect(armed).toEqual([true, false]);
	});

	it('ignores another pointer than the one that pressed', () => {
		const { m, swiped } = machine();
		m.down(0, 0, 1, false);
		expect(m.move(100, 0, 2)).toBe(false);
		expect(m.up(2)).toBeUndefined();
		expect(m.current.dx).toBe(0);
		expect(swiped).toEqual([]);
	});

	it('acts on a long press held still, and swallows the click that ends it', () => {
		const { m, timers, options } = machine();
		m.down(0, 0, 1, true);
		expect(m.holding).toBe(true);
		m.move(4, 3, 1);
		timers.runAll();
		expect(options.onLongPress).toHaveBeenCalledTimes(1);
		expect(m.pressed).toBe(true);
		m.up(1);
		expect(m.takeClick()).toBe(true);
	});

	it('is no long press once the finger moved, nor where a press may not be one', () => {
		const { m, timers, options } = machine();
		m.down(0, 0, 1, true);
		m.move(0, 25, 1);
		expect(timers.pending()).toBe(0);
		timers.runAll();
		m.down(0, 0, 2, false);
		expect(timers.pending()).toBe(0);
		m.down(0, 0, 3, true);
		m.cancel();
		timers.runAll();
		expect(options.onLongPress).not.toHaveBeenCalled();
	});
});
