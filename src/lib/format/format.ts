/**
 * How dates, durations and entity-encoded titles read on screen: the formatters the headline row
 * and the article view share, over the date patterns kept for a fast start (date-patterns.ts).
 */
import { formatLocale } from '$lib/i18n/m';
import {
	DATE_STYLES,
	formatWith,
	readDatePatterns,
	type DatePatterns,
	type DateStyle
} from './date-patterns';

// toLocale*String(…, options) builds a new Intl.DateTimeFormat on every call, which cost ~20 ms of
// a start's first screen (one per headline row); each formatter is built once instead.
// Each in the app's language (i18n/m.ts formatLocale), not the browser's.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
	const locale = formatLocale();
	const key = `${locale ?? ''} ${JSON.stringify(options)}`;
	let found = formatters.get(key);
	if (!found) {
		found = new Intl.DateTimeFormat(locale, options);
		formatters.set(key, found);
	}
	return found;
}

let patterns: DatePatterns | undefined | null = null; // null: not read yet
/** The language the patterns read were made for: a change of language reads them again. */
let patternsFor: string | undefined;

function localStore(): Storage | undefined {
	try {
		return typeof localStorage === 'undefined' ? undefined : localStorage;
	} catch {
		return undefined; // storage refused (e.g. some privacy settings)
	}
}

function formatDate(style: DateStyle, date: Date): string {
	const language = formatLocale();
	if (patterns === null || patternsFor !== language) {
		patterns = readDatePatterns(localStore());
		patternsFor = language;
	}
	return patterns ? formatWith(patterns, style, date) : formatter(DATE_STYLES[style]).format(date);
}

/** Dates as a reader wants them: the time for today, the day for this year, else the full date. */
export function shortDate(unixSeconds: number, now = new Date()): string {
	const date = new Date(unixSeconds * 1000);
	if (date.toDateString() === now.toDateString()) return formatDate('time', date);
	return formatDate(date.getFullYear() === now.getFullYear() ? 'dayMonth' : 'full', date);
}

/**
 * After the first screen: the headline date patterns of the next starts, made with Intl and
 * checked against it when none are kept for this language and browser (date-patterns-make.ts). The
 * first screen then needs no Intl at all.
 */
export async function updateDatePatterns(): Promise<void> {
	const { keepDatePatterns } = await import('./date-patterns-make');
	patterns = keepDatePatterns(localStore());
}

export function longDate(unixSeconds: number): string {
	return formatter({ dateStyle: 'long', timeStyle: 'short' }).format(new Date(unixSeconds * 1000));
}

export function isoDate(unixSeconds: number): string {
	return new Date(unixSeconds * 1000).toISOString();
}

let decoder: HTMLTextAreaElement | undefined;

/** The named references excerpts carry, read without the HTML parser (`decodeEntities`). */
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
 * Some servers leave entities in excerpts (`&hellip;`); show them as the characters they mean.
 * The common ones are read here, with no DOM: every tt-rss excerpt ends in `&hellip;`, and a
 * parse per row was 2.5 s of a 1,000-row scroll at 4× CPU (issue 28). Anything else (a reference
 * without its `;`, a name not in the table, a code point the parser maps) goes to the HTML
 * parser: a textarea's content is parsed as text with character references (RCDATA), so markup
 * in it never becomes elements, nothing loads or runs.
 */
export function decodeEntities(text: string): string {
	if (!text.includes('&')) return text;
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
	if (!parserNeeded && !text.replace(REFERENCE, '').includes('&')) return decoded;
	decoder ??= document.createElement('textarea');
	decoder.innerHTML = text;
	return decoder.value;
}

/** "1:05:03" or "4:07" from seconds. */
export function duration(seconds: number | undefined): string | undefined {
	if (!seconds || !Number.isFinite(seconds)) return undefined;
	const s = Math.round(seconds);
	const h = Math.floor(s / 3600);
	const m = Math.floor((s % 3600) / 60);
	const rest = String(s % 60).padStart(2, '0');
	return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}
