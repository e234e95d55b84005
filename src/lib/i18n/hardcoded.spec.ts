// A guard for issue 29 ("every screen localised"): no .svelte file may say English a reader sees or
// hears without the catalogs — no static word in an accessible name, a tooltip, a placeholder or an
// image's text, nor in a text node. Words come from `m.…` (docs/i18n.md); what is not a word of any
// language (an example address, a key's name) is allowed below, by file and text.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');

/** Attributes and component props whose text a reader sees or hears. */
const SPOKEN = [
	'aria-label',
	'aria-description',
	'aria-roledescription',
	'aria-valuetext',
	'aria-placeholder',
	'title',
	'placeholder',
	'alt',
	'label',
	'summary',
	'summaryLabel',
	'panelLabel'
];

/** `file: text` pairs that are no words to translate. */
const ALLOWED = new Set([
	// An example of a feed's address, the same in every language.
	'src/routes/(app)/subscribe/+page.svelte: https://example.org/feed.xml'
]);

function svelteFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return svelteFiles(path);
		return entry.name.endsWith('.svelte') ? [path] : [];
	});
}

/** Blanks `{…}` expressions (nested braces and quoted strings inside them included), keeping lines. */
function withoutExpressions(markup: string): string {
	let out = '';
	let depth = 0;
	let quote: string | undefined;
	for (let i = 0; i < markup.length; i++) {
		const c = markup[i] ?? '';
		if (depth > 0) {
			if (quote) {
				if (c === '\\') {
					out += ' ';
					i++;
					out += markup[i] === '\n' ? '\n' : ' ';
					continue;
				}
				if (c === quote) quote = undefined;
			} else if (c === '"' || c === "'" || c === '`') quote = c;
			else if (c === '{') depth++;
			else if (c === '}') depth--;
			out += c === '\n' ? '\n' : ' ';
		} else if (c === '{') {
			depth = 1;
			out += ' ';
		} else out += c;
	}
	return out;
}

/** The markup a reader meets: no script, style or comment; expressions blanked. */
export function markupOf(source: string): string {
	const blank = (part: string): string => part.replace(/[^\n]/g, ' ');
	return withoutExpressions(
		source
			.replace(/<script[\s\S]*?<\/script>/g, blank)
			.replace(/<style[\s\S]*?<\/style>/g, blank)
			.replace(/<!--[\s\S]*?-->/g, blank)
	);
}

const WORD = /\p{L}{2,}/u;
const ATTRIBUTE = new RegExp(`(?<![\\w-])(${SPOKEN.join('|')})=(?:"([^"]*)"|'([^']*)')`, 'g');
const TEXT = />([^<>]*)</g;

/** Where a file says words of its own: `line: text`. */
export function hardCodedWords(source: string): { line: number; text: string }[] {
	const markup = markupOf(source);
	const lineAt = (index: number): number => markup.slice(0, index).split('\n').length;
	const found: { line: number; text: string }[] = [];
	for (const match of markup.matchAll(ATTRIBUTE)) {
		const text = (match[2] ?? match[3] ?? '').trim();
		if (WORD.test(text)) found.push({ line: lineAt(match.index), text });
	}
	for (const match of markup.matchAll(TEXT)) {
		const text = (match[1] ?? '').replace(/\s+/g, ' ').trim();
		if (WORD.test(text)) found.push({ line: lineAt(match.index), text });
	}
	return found;
}

describe('words in .svelte files', () => {
	it('finds a hard-coded label, tooltip, placeholder and text, and not what comes from m', () => {
		const sample = `<script>const a = '<b>Not markup</b>';</script>
<!-- <p>A comment</p> -->
<button aria-label="Close" title={m.close()}>{m.close()}</button>
<input placeholder='Search' />
<Menu summary="More actions" panelLabel={m.more()} />
<p>{count > 1 ? 'many' : 'one'} items</p>
<img alt="" src={x} /><span>{'{'}·{'}'}</span>
<p>{@html m.x({ a: { b: 1 } })}</p>`;
		expect(hardCodedWords(sample)).toEqual([
			{ line: 3, text: 'Close' },
			{ line: 4, text: 'Search' },
			{ line: 5, text: 'More actions' },
			{ line: 6, text: 'items' }
		]);
	});

	it('come from the catalogs in every component and route', () => {
		const found = svelteFiles(join(ROOT, 'src')).flatMap((path) => {
			const file = relative(ROOT, path);
			return hardCodedWords(readFileSync(path, 'utf8'))
				.filter(({ text }) => !ALLOWED.has(`${file}: ${text}`))
				.map(({ line, text }) => `${file}:${line}: ${text}`);
		});
		expect(found).toEqual([]);
	});
});
