/**
 * Character references read without the HTML parser: the common ones of tt-rss's excerpts. Loaded
 * after the first rows are drawn (format.ts `decodeEntities`), so the first screen's JavaScript
 * does not carry it.
 */

/** The named references excerpts carry, read without the HTML parser (`readReferences`). */
const NAMED: Readonly<Record<string, string>> = {
	amp: '&',
	lt: '<',
	gt: '>',
	quot: '"',
	apos: "'",
	nbsp: '\u00a0',
	hellip: '\u2026',
	mdash: '\u2014',
	ndash: '\u2013',
	lsquo: '\u2018',
	rsquo: '\u2019',
	sbquo: '\u201a',
	ldquo: '\u201c',
	rdquo: '\u201d',
	bdquo: '\u201e',
	laquo: '\u00ab',
	raquo: '\u00bb',
	bull: '\u2022',
	middot: '\u00b7',
	copy: '\u00a9',
	reg: '\u00ae',
	trade: '\u2122',
	deg: '\u00b0',
	euro: '\u20ac',
	pound: '\u00a3',
	times: '\u00d7'
};

/** A whole character reference: decimal, hexadecimal or named, with its `;`. */
const REFERENCE = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z][a-zA-Z0-9]{0,31}));/g;

/**
 * The code points a numeric reference stands for as itself: not NUL, not the C1 range (the HTML
 * parser maps those through windows-1252), not a surrogate, not past Unicode.
 */
const plainCodePoint = (code: number): boolean =>
	code > 0 && (code < 0x80 || code > 0x9f) && (code < 0xd800 || code > 0xdfff) && code <= 0x10ffff;

/**
 * The text with its character references read, when each is a whole one this module knows;
 * undefined when the HTML parser must read it (a reference without its `;`, a name not in the
 * table, a code point the parser maps).
 */
export function readReferences(text: string): string | undefined {
	let parserNeeded = false;
	const decoded = text.replace(REFERENCE, (whole, dec?: string, hex?: string, name?: string) => {
		if (name !== undefined) {
			const named = NAMED[name];
			if (named === undefined) parserNeeded = true;
			return named ?? whole;
		}
		const code = dec !== undefined ? Number(dec) : parseInt(hex ?? '', 16);
		if (!plainCodePoint(code)) {
			parserNeeded = true;
			return whole;
		}
		return String.fromCodePoint(code);
	});
	return parserNeeded || text.replace(REFERENCE, '').includes('&') ? undefined : decoded;
}
