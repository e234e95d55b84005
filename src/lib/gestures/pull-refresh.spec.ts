import { describe, expect, it } from 'vitest';
import { PullRefresh, type PullState } from './pull-refresh';

function machine(atTop = true) {
	let refreshed = 0;
	const states: PullState[] = [];
	const m = new PullRefresh({
		atTop: () => atTop,
		onRefresh: () => refreshed++,
		onChange: (state) => states.push(state)
	});
	return { m, states, refreshed: () => refreshed };
}

describe('PullRefresh', () => {
	it('refreshes once when a pull from the top is let go past the threshold', () => {
		const { m, refreshed, states } = machine();
		m.down(100, 100, 1);
		expect(m.move(102, 130, 1)).toBe(true);
		expect(m.current.armed).toBe(false);
		m.move(104, 100 + 10 + 2 * m.threshold, 1);
		expect(m.current).toEqual({ pull: m.threshold, armed: true });
		expect(m.up(1)).toBe(true);
		expect(refreshed()).toBe(1);
		// The marker goes back.
		expect(states.at(-1)).toEqual({ pull: 0, armed: false });
	});

	it('does not refresh when let go before the threshold', () => {
		const { m, refreshed } = machine();
		m.down(100, 100, 1);
		m.move(100, 150, 1);
		expect(m.up(1)).toBe(false);
		expect(refreshed()).toBe(0);
	});

	it('follows the finger damped, and no further than max', () => {
		const { m } = machine();
		m.down(0, 0, 1);
		m.move(0, 50, 1);
		expect(m.current.pull).toBe(20);
		m.move(0, 2000, 1);
		expect(m.current.pull).toBe(m.max);
	});

	it('is not a pull when the list is not at its top', () => {
		const { m, refreshed } = machine(false);
		m.down(100, 100, 1);
		expect(m.move(100, 400, 1)).toBe(false);
		expect(m.up(1)).toBe(false);
		expect(refreshed()).toBe(0);
	});

	it('is not a pull for the rest of a touch that first went sideways or up', () => {
		const sideways = machine();
		sideways.m.down(100, 100, 1);
		expect(sideways.m.move(140, 105, 1)).toBe(false);
		expect(sideways.m.move(140, 400, 1)).toBe(false);
		expect(sideways.m.up(1)).toBe(false);

		const up = machine();
		up.m.down(100, 100, 1);
		expect(up.m.move(100, 80, 1)).toBe(false);
		expect(up.m.move(100, 400, 1)).toBe(false);
		expect(up.m.up(1)).toBe(false);
		expect(sideways.refreshed() + up.refreshed()).toBe(0);
	});

	it('ignores a tremble, another finger, and a cancelled touch', () => {
		const { m, refreshed } = machine();
		m.down(100, 100, 1);
		expect(m.move(103, 105, 1)).toBe(false);
		expect(m.move(100, 400, 2)).toBe(false);
		m.move(100, 400, 1);
		expect(m.current.armed).toBe(true);
		m.cancel();
		expect(m.current).toEqual({ pull: 0, armed: false });
		expect(m.up(1)).toBe(false);
		expect(refreshed()).toBe(0);
	});
});
