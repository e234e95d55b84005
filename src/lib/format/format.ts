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
/** entities.ts `readReferences`, once loaded (after the first rows: see `decodeEntities`). */
let readReferences: ((text: string) => string | undefined) | undefined;
let referencesAsked = false;

/**
 * Some servers leave entities in excerpts (`&hellip;`); show them as the characters they mean.
 * Every tt-rss excerpt ends in `&hellip;`, and a parse per row was 2.5 s of a 1,000-row scroll at
 * 4× CPU: the common references are read by entities.ts, loaded in a task after the
 * first call so the first screen's JavaScript does not carry it. Until then, and for anything
 * it does not know, the HTML parser reads them: a textarea's content is parsed as text with
 * character references (RCDATA), so markup in it never becomes elements, nothing loads or runs.
 */
export function decodeEntities(text: string): string {
	if (!text.includes('&')) return text;
	const read = readReferences?.(text);
	if (read !== undefined) return read;
	if (!referencesAsked) {
		referencesAsked = true;
		setTimeout(() => {
			void import('./entities').then(
				(module) => (readReferences = module.readReferences),
				() => undefined
			);
		});
	}
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
