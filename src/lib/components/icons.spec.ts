import { describe, expect, it } from 'vitest';
import { ICON_SHAPES, ICONS, iconBefore, iconsStylesheet, type IconName } from './icons';

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

	it('gives every icon one class whose mask is its shape, as a data: address any engine parses', () => {
		const css = iconsStylesheet();
		for (const [name, shape] of Object.entries(ICON_SHAPES)) {
			const rule = new RegExp(
				`\\.ui-icon-${name}\\{--icon:url\\("data:image/svg\\+xml,([^"]*)"\\)\\}`
			);
			const found = rule.exec(css);
			expect(found, name).not.toBeNull();
			const uri = found?.[1] ?? '';
			// Nothing a URL or CSS would read otherwise: no raw <, >, # or quote of the rule's own.
			expect(uri).not.toMatch(/[<>#"]/);
			const svg = decodeURIComponent(uri);
			expect(svg).toMatch(/^<svg xmlns='http:\/\/www\.w3\.org\/2000\/svg' viewBox='0 0 24 24'/);
			if (shape.stroke) expect(svg).toContain(`<path d='${shape.stroke}'/>`);
			if (shape.fill) expect(svg).toContain(`<path d='${shape.fill}' fill='black' stroke='none'/>`);
		}
		// Painted in the text's colour, which forced colours keep (a forced background would hide it).
		expect(css).toMatch(
			/\.ui-icon\{[^}]*background-color:currentColor[^}]*forced-color-adjust:none/
		);
		// The same drawing before a control's content (iconBefore): the shape is inherited.
		const drawn = /\.ui-icon\{([^}]*)\}/.exec(css)?.[1];
		expect(drawn).toBeTruthy();
		expect(css).toContain(`.ui-icon-before::before{content:'';${drawn ?? ''}}`);
		expect(iconBefore('star')).toBe('ui-icon-before ui-icon-star');
	});
});
