/**
 * The headline dates of the first screen without Intl. The first Intl.DateTimeFormat a page builds
 * loads the locale's date data (ICU): 15–30 ms, ~60 ms with the CPU slowed four times — the largest
 * single piece of work before a start's first headline. After the first screen, when none are kept
 * for this language and browser version, the locale's three headline formats are taken apart with
 * formatToParts into patterns (literals, fields, month names, day periods) and kept in
 * localStorage; the next starts render their rows from them. A pattern is kept only if it
 * reproduces Intl's own output for every hour and every month of sample dates; otherwise (other
 * digits, other calendars, unusual fields) the rows use Intl. Making them (date-patterns-make.ts)
 * is not the first screen's code: this module only reads and applies them.
 */

import { formatLocale } from '$lib/i18n/m';

export type DateStyle = 'time' | 'dayMonth' | 'full';

/** Intl options of each style (see shortDate). */
export const DATE_STYLES: Record<DateStyle, Intl.DateTimeFormatOptions> = {
	time: { hour: '2-digit', minute: '2-digit' },
	dayMonth: { day: 'numeric', month: 'short' },
	full: { day: 'numeric', month: 'short', year: 'numeric' }
};

export type Field = 'hour' | 'minute' | 'day' | 'month' | 'year' | 'dayPeriod';
/** A literal text, or a field to fill in. */
export type Piece = { text: string } | { field: Field };

export interface StylePattern {
	pieces: Piece[];
	/** Month names as this style writes them (some languages inflect them with a day). */
	months: string[];
	hourPad: boolean;
	dayPad: boolean;
}

/** What the patterns were made for: another language or another browser version makes them stale. */
export interface MadeFor {
	/** The locale the dates are written in (i18n/m.ts `formatLocale`; navigator.language before). */
	language: string;
	/** navigator.userAgent: a browser update may bring other locale data. */
	agent: string;
}

export interface DatePatterns extends MadeFor {
	version: 1;
	hourCycle: 'h11' | 'h12' | 'h23' | 'h24';
	dayPeriods: [string, string];
	styles: Record<DateStyle, StylePattern>;
}

export const STYLES = Object.keys(DATE_STYLES) as DateStyle[];
export const STORAGE_KEY = 'reader.datePatterns';

function pad2(n: number): string {
	return String(n).padStart(2, '0');
}

function hourOf(date: Date, cycle: DatePatterns['hourCycle']): number {
	const h = date.getHours();
	if (cycle === 'h11') return h % 12;
	if (cycle === 'h12') return h % 12 || 12;
	if (cycle === 'h24') return h || 24;
	return h;
}

export function formatWith(patterns: DatePatterns, style: DateStyle, date: Date): string {
	const pattern = patterns.styles[style];
	let out = '';
	for (const piece of pattern.pieces) {
		if ('text' in piece) {
			out += piece.text;
			continue;
		}
		switch (piece.field) {
			case 'hour': {
				const h = hourOf(date, patterns.hourCycle);
				out += pattern.hourPad ? pad2(h) : String(h);
				break;
			}
			case 'minute':
				out += pad2(date.getMinutes());
				break;
			case 'day':
				out += pattern.dayPad ? pad2(date.getDate()) : String(date.getDate());
				break;
			case 'month':
				out += pattern.months[date.getMonth()] ?? '';
				break;
			case 'year':
				out += String(date.getFullYear());
				break;
			case 'dayPeriod':
				out += patterns.dayPeriods[date.getHours() < 12 ? 0 : 1];
				break;
		}
	}
	return out;
}

/** Kept where the locale cannot be rebuilt exactly, so that it is not tried on every start. */
export interface NoPatterns extends MadeFor {
	version: 1;
	none: true;
}

function madeFor(value: unknown, browser: MadeFor): value is DatePatterns | NoPatterns {
	if (typeof value !== 'object' || value === null) return false;
	const p = value as Partial<DatePatterns & NoPatterns>;
	if (p.version !== 1 || p.language !== browser.language || p.agent !== browser.agent) return false;
	if (p.none === true) return true;
	return (
		typeof p.styles === 'object' &&
		p.styles !== null &&
		STYLES.every((s) => Array.isArray(p.styles?.[s]?.pieces))
	);
}

/** The language dates are written in (the app's: i18n/m.ts `formatLocale`), and the browser. */
export function currentBrowser(): MadeFor | undefined {
	if (typeof navigator === 'undefined') return undefined;
	return { language: formatLocale() ?? navigator.language, agent: navigator.userAgent };
}

export function kept(storage: Storage | undefined): DatePatterns | NoPatterns | undefined {
	const browser = currentBrowser();
	if (!storage || !browser) return undefined;
	try {
		const value: unknown = JSON.parse(storage.getItem(STORAGE_KEY) ?? 'null');
		return madeFor(value, browser) ? value : undefined;
	} catch {
		return undefined;
	}
}

/** The kept patterns, if they were made for this language and browser. */
export function readDatePatterns(storage: Storage | undefined): DatePatterns | undefined {
	const value = kept(storage);
	return value && !('none' in value) ? value : undefined;
}
