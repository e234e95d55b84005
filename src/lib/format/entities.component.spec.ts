import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readReferences } from './entities';
import { decodeEntities } from './format';

/** The HTML parser's own reading of text with character references (RCDATA, as a textarea's). */
function parserReads(text: string): string {
	const area = document.createElement('textarea');
	area.innerHTML = text;
	return area.value;
}

/** Pieces excerpts are made of: words, markup-like text, and references whole, broken or odd. */
const piece = fc.oneof(
	fc.constantFrom(
		'&hellip;',
		'&amp;',
		'&lt;b&gt;',
		'&quot;',
		'&#39;',
		'&nbsp;',
		'&mdash;',
		'&rsquo;',
		'&euro;',
		'&AMP;',
		'&amp',
		'&hellip',
		'&notit;',
		'&not;',
		'&eacute;',
		'&#x41;',
		'&#X1F600;',
		'&#128512;',
		'&#0;',
		'&#128;',
		'&#x9F;',
		'&#xD800;',
		'&#1114112;',
		'&#00000065;',
		'&#;',
		'&#x;',
		'& ',
		'&',
		';',
		'#',
		'<script>x</script>',
		'AT&T',
		'Ü'
	),
	fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', '\n', '#', 'x', ';', 'é') })
);

describe('decodeEntities', () => {
	it('reads what the HTML parser reads, for any mix of references', async () => {
		const property = fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
			const text = pieces.join('');
			expect(decodeEntities(text)).toBe(parserReads(text));
		});
		// Before the fast reader is loaded (the parser's turn), and after.
		fc.assert(property, { numRuns: 200 });
		await new Promise((resolve) => setTimeout(resolve));
		await import('./entities');
		fc.assert(property, { numRuns: 2000 });
	});

	it('the fast reader reads what the parser reads, or leaves the text to it', () => {
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
				const text = pieces.join('');
				const read = readReferences(text);
				if (read !== undefined) expect(read).toBe(parserReads(text));
			}),
			{ numRuns: 2000 }
		);
	});

	it('reads tt-rss’s excerpt endings and common references without the parser', () => {
		expect(readReferences('Rust 2.0 is out &amp; fast&hellip;')).toBe('Rust 2.0 is out & fast…');
		expect(readReferences('&#x1F600; &#233; &lt;b&gt;')).toBe('😀 é <b>');
		expect(readReferences('&amp')).toBeUndefined();
		expect(decodeEntities('no references')).toBe('no references');
	});
});
