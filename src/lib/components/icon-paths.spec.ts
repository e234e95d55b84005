import { describe, expect, it } from 'vitest';
import { ICONS, shapeOf } from './icon-paths';
import { LATER_ICONS } from './icon-paths-later';

const ALL: Record<string, readonly string[]> = { ...ICONS, ...LATER_ICONS };

describe('the icon set', () => {
	it('every path starts with an absolute moveto, so joined paths draw the same subpaths', () => {
		for (const paths of Object.values(ALL))
			for (const d of paths) expect(d.replace(/^fill:/, '')).toMatch(/^M/);
	});

	it('draws each icon with one stroked and one filled shape at most, every path kept', () => {
		for (const paths of Object.values(ALL)) {
			const shape = shapeOf(paths);
			const stroked = paths.filter((d) => !d.startsWith('fill:'));
			const filled = paths.filter((d) => d.startsWith('fill:')).map((d) => d.slice(5));
			expect(shape.stroke).toBe(stroked.join(''));
			expect(shape.fill).toBe(filled.join(''));
		}
		expect(shapeOf(ICONS.more)).toEqual({
			stroke: '',
			fill: ICONS.more.map((d) => d.slice(5)).join('')
		});
	});

	it('names each icon once, in one of the two sets', () => {
		const first = Object.keys(ICONS);
		expect(Object.keys(LATER_ICONS).filter((name) => first.includes(name))).toEqual([]);
	});
});
