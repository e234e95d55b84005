import { describe, expect, it } from 'vitest';
import { ICON_SHAPES, ICONS, type IconName } from './icons';

describe('the icon set', () => {
	it('every path starts with an absolute moveto, so joined paths draw the same subpaths', () => {
		for (const paths of Object.values(ICONS))
			for (const d of paths) expect(d.replace(/^fill:/, '')).toMatch(/^M/);
	});

	it('draws each icon with one stroked and one filled shape at most, every path kept', () => {
		for (const [name, paths] of Object.entries(ICONS)) {
			const shape = ICON_SHAPES[name as IconName];
			const stroked = paths.filter((d) => !d.startsWith('fill:'));
			const filled = paths.filter((d) => d.startsWith('fill:')).map((d) => d.slice(5));
			expect(shape.stroke).toBe(stroked.join(''));
			expect(shape.fill).toBe(filled.join(''));
		}
		expect(ICON_SHAPES.more).toEqual({
			stroke: '',
			fill: ICONS.more.map((d) => d.slice(5)).join('')
		});
	});
});
