// A guard for issue 29's right-to-left layout: the app's CSS names the reading direction's start
// and end (`margin-inline-start`, `border-inline-end`, `text-align: start`), never a physical side,
// so that `dir="rtl"` mirrors every screen. A physical side where the direction does not matter (a
// centred toast's `left: 50%`, a bar's `left: 0; right: 0`) is not a property this test names.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');

/** Properties and values that fix a side whatever the language's direction. */
const PHYSICAL =
	/(?:^|[\s;{])((?:margin|padding|border)-(?:left|right)(?:-[a-z]+)?\s*:|text-align\s*:\s*(?:left|right)\b|float\s*:\s*(?:left|right)\b)/gm;

function styled(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return styled(path);
		return /\.(svelte|css)$/.test(entry.name) ? [path] : [];
	});
}

/** The CSS of a file: a component's <style> blocks, or a whole .css file. */
function cssOf(path: string): string {
	const text = readFileSync(path, 'utf8');
	if (path.endsWith('.css')) return text;
	return [...text.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join('\n');
}

describe('right-to-left layout', () => {
	it('no CSS names a physical side (logical properties mirror under dir="rtl")', () => {
		const found = styled(join(ROOT, 'src')).flatMap((path) =>
			[...cssOf(path).matchAll(PHYSICAL)].map((m) => `${relative(ROOT, path)}: ${m[1]}`)
		);
		expect(found).toEqual([]);
	});

	it('finds one when there is one', () => {
		expect('a { margin-left: 1rem }'.match(PHYSICAL)).not.toBeNull();
		expect('a { text-align: right; }'.match(PHYSICAL)).not.toBeNull();
		expect('a { border-right-color: red }'.match(PHYSICAL)).not.toBeNull();
		expect('a { margin-inline-start: 1rem; text-align: start }'.match(PHYSICAL)).toBeNull();
	});
});
