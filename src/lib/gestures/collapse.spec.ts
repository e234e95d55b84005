import { describe, expect, it } from 'vitest';
import { collapseOnScroll, SHOWN, type CollapseState } from './collapse';

function run(offsets: number[]): CollapseState[] {
	const states: CollapseState[] = [];
	let state = SHOWN;
	for (const top of offsets) {
		state = collapseOnScroll(state, top);
		states.push(state);
	}
	return states;
}

describe('collapseOnScroll', () => {
	it('hides the head while scrolling down and shows it on the way up', () => {
		const states = run([20, 60, 200, 180, 400]);
		expect(states.map((s) => s.collapsed)).toEqual([true, true, true, false, true]);
	});

	it('ignores a tremble smaller than the slop', () => {
		const states = run([100, 104, 97, 101]);
		expect(states.map((s) => s.collapsed)).toEqual([true, true, true, true]);
	});

	it('always shows the head at the top of the list', () => {
		expect(collapseOnScroll({ top: 500, collapsed: true }, 0)).toEqual(SHOWN);
		expect(collapseOnScroll({ top: 3, collapsed: true }, -20)).toEqual(SHOWN);
	});
});
