/**
 * Icon.svelte in jsdom: an inline `svg` of the icon's shape in the text's colour, hidden from
 * assistive technology unless it names itself; and no stylesheet of the app draws an icon as a
 * `data:` SVG image (each such image is a document the browser builds in a first frame's style
 * pass: issue 27's slower starts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { flushSync } from 'svelte';
import { describe, expect, it, vi } from 'vitest';
import Icon from './Icon.svelte';
import { ICONS, shapeOf } from './icon-paths';
import { freshTarget, show } from '$support/mounted';

describe('Icon', () => {
	it('draws the shape inline, stroked and filled in currentColor, hidden from assistive technology', () => {
		const target = freshTarget();
		show(Icon, target, { name: 'star-filled', size: 20 });
		const svg = target.querySelector('svg');
		expect(svg?.getAttribute('width')).toBe('20');
		expect(svg?.getAttribute('stroke')).toBe('currentColor');
		expect(svg?.getAttribute('aria-hidden')).toBe('true');
		expect(svg?.getAttribute('role')).toBeNull();
		const paths = [...(svg?.querySelectorAll('path') ?? [])].map((p) => p.getAttribute('d'));
		const shape = shapeOf(ICONS['star-filled']);
		expect(paths).toEqual([shape.stroke, shape.fill].filter(Boolean));
		expect(svg?.querySelector('path[fill="currentColor"]')).not.toBeNull();
	});

	it('draws an article icon once its module is in (asked for before, it loads it)', async () => {
		const target = freshTarget();
		show(Icon, target, { name: 'share' });
		// Nothing has imported icon-paths-later.ts in this file: the icon has no shape yet.
		expect(target.querySelectorAll('svg path')).toHaveLength(0);
		await vi.waitFor(() => {
			flushSync();
			expect(target.querySelectorAll('svg path').length).toBeGreaterThan(0);
		});
		const { LATER_ICONS } = await import('./icon-paths-later');
		const paths = [...target.querySelectorAll('svg path')].map((p) => p.getAttribute('d'));
		expect(paths).toEqual([shapeOf(LATER_ICONS.share).stroke]);
	});

	it('once icon-paths-later.ts is in, its icons draw at their first render', async () => {
		const { LATER_ICONS } = await import('./icon-paths-later');
		const target = freshTarget();
		show(Icon, target, { name: 'label' });
		const shape = shapeOf(LATER_ICONS.label);
		const paths = [...target.querySelectorAll('svg path')].map((p) => p.getAttribute('d'));
		expect(paths).toEqual([shape.stroke, shape.fill]);
	});

	it('names itself as an image only when it stands alone', () => {
		const target = freshTarget();
		show(Icon, target, { name: 'more', label: 'More' });
		const svg = target.querySelector('svg');
		expect(svg?.getAttribute('role')).toBe('img');
		expect(svg?.getAttribute('aria-label')).toBe('More');
		expect(svg?.hasAttribute('aria-hidden')).toBe(false);
	});

	it('no stylesheet or component of the app uses a data: SVG image', () => {
		const found: string[] = [];
		const walk = (dir: string): void => {
			for (const name of readdirSync(dir)) {
				const path = join(dir, name);
				if (statSync(path).isDirectory()) walk(path);
				else if (/\.(svelte|css|ts)$/.test(name) && !name.endsWith('.spec.ts')) {
					if (/data:image\/svg/.test(readFileSync(path, 'utf8'))) found.push(path);
				}
			}
		};
		walk(join(process.cwd(), 'src'));
		expect(found).toEqual([]);
	});
});
