/**
 * The headline dates of the first screen without Intl. The first Intl.DateTimeFormat a page builds
 * loads the locale's date data (ICU): 15–30 ms, ~60 ms with the CPU slowed four times — the largest
 * single piece of work before a start's first headline. Once per page load, after the first
 * screen, the locale's three headline formats are taken apart with formatToParts into patterns
 * (literals, fields, month names, day periods) and kept in localStorage; the next start renders its
 * rows from them. A pattern is kept only if it reproduces Intl's own output for every hour and every
 * month of sample dates; otherwise (other digits, other calendars, unusual fields) the rows use Intl.
 */

export type DateStyle = 'time' | 'dayMonth' | 'full';

/** Intl options of each style (see shortDate). */
export const DATE_STYLES: Record<DateStyle, Intl.DateTimeFormatOptions> = {
	time: { hour: '2-digit', minute: '2-digit' },
	dayMonth: { day: 'numeric', month: 'short' },
	full: { day: 'numeric', month: 'short', year: 'numeric' }
};

type Field = 'hour' | 'minute' | 'day' | 'month' | 'year' | 'dayPeriod';
/** A literal text, or a field to fill in. */
type Piece = { text: string } | { field: Field };

interface StylePattern {
	pieces: Piece[];
	/** Month names as this style writes them (some languages inflect them with a day). */
	months: string[];
	hourPad: boolean;
	dayPad: boolean;
}

export interface DatePatterns {
	version: 1;
	/** navigator.language when made: another language makes them stale. */
	language: string;
	hourCycle: 'h11' | 'h12' | 'h23' | 'h24';
	dayPeriods: [string, string];
	styles: Record<DateStyle, StylePattern>;
}

const FIELDS = new Set<string>(['hour', 'minute', 'day', 'month', 'year', 'dayPeriod']);
const STORAGE_KEY = 'reader.datePatterns';

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

/** Sample dates every pattern must reproduce: every hour, every month, two days, two years. */
function samples(): Date[] {
	const dates: Date[] = [];
	for (let hour = 0; hour < 24; hour++) {
		for (const minute of [0, 7, 59]) dates.push(new Date(2024, 4, 9, hour, minute));
	}
	for (let month = 0; month < 12; month++) {
		for (const day of [1, 9, 23]) {
			dates.push(new Date(2023, month, day, 12), new Date(2025, month, day, 12));
		}
	}
	return dates;
}

function piecesOf(parts: Intl.DateTimeFormatPart[]): Piece[] | undefined {
	const pieces: Piece[] = [];
	for (const part of parts) {
		if (part.type === 'literal') pieces.push({ text: part.value });
		else if (FIELDS.has(part.type)) pieces.push({ field: part.type as Field });
		else return undefined; // era, weekday, related year…: not rebuilt here
	}
	return pieces;
}

/** The patterns of `locale` (the browser's default when undefined), or undefined if not exact. */
export function makeDatePatterns(
	language: string,
	locale?: string | string[]
): DatePatterns | undefined {
	try {
		const time = new Intl.DateTimeFormat(locale, DATE_STYLES.time);
		const options = time.resolvedOptions();
		const hourCycle = options.hourCycle ?? 'h23';
		const probe = (f: Intl.DateTimeFormat, date: Date, type: string): string =>
			f.formatToParts(date).find((p) => p.type === type)?.value ?? '';
		const styles = {} as Record<DateStyle, StylePattern>;
		for (const style of Object.keys(DATE_STYLES) as DateStyle[]) {
			const format = style === 'time' ? time : new Intl.DateTimeFormat(locale, DATE_STYLES[style]);
			const reference = new Date(2024, 10, 22, 13, 5);
			let pieces = piecesOf(format.formatToParts(reference));
			if (!pieces) return undefined;
			// V8's format() writes a plain space where formatToParts has U+202F (before AM/PM).
			if (!format.format(reference).includes('\u202f')) {
				pieces = pieces.map((p) => ('text' in p ? { text: p.text.replaceAll('\u202f', ' ') } : p));
			}
			styles[style] = {
				pieces,
				months: Array.from({ length: 12 }, (_, m) =>
					probe(format, new Date(2024, m, 15, 12), 'month')
				),
				hourPad: probe(format, new Date(2024, 0, 1, 1, 5), 'hour').length === 2,
				dayPad: probe(format, new Date(2024, 0, 5, 12), 'day').length === 2
			};
		}
		const patterns: DatePatterns = {
			version: 1,
			language,
			hourCycle,
			dayPeriods: [
				probe(time, new Date(2024, 0, 1, 9), 'dayPeriod'),
				probe(time, new Date(2024, 0, 1, 21), 'dayPeriod')
			],
			styles
		};
		for (const style of Object.keys(DATE_STYLES) as DateStyle[]) {
			const format = new Intl.DateTimeFormat(locale, DATE_STYLES[style]);
			for (const date of samples()) {
				if (formatWith(patterns, style, date) !== format.format(date)) return undefined;
			}
		}
		return patterns;
	} catch {
		return undefined;
	}
}

function isPatterns(value: unknown, language: string): value is DatePatterns {
	if (typeof value !== 'object' || value === null) return false;
	const p = value as Partial<DatePatterns>;
	return (
		p.version === 1 &&
		p.language === language &&
		typeof p.styles === 'object' &&
		p.styles !== null &&
		(Object.keys(DATE_STYLES) as DateStyle[]).every((s) => Array.isArray(p.styles?.[s]?.pieces))
	);
}

function currentLanguage(): string | undefined {
	return typeof navigator === 'undefined' ? undefined : navigator.language;
}

/** The kept patterns, if they were made for the browser's current language. */
export function readDatePatterns(storage: Storage | undefined): DatePatterns | undefined {
	const language = currentLanguage();
	if (!storage || language === undefined) return undefined;
	try {
		const value: unknown = JSON.parse(storage.getItem(STORAGE_KEY) ?? 'null');
		return isPatterns(value, language) ? value : undefined;
	} catch {
		return undefined;
	}
}

/** Makes the patterns afresh (with Intl) and keeps them, or forgets them if they are not exact. */
export function refreshDatePatterns(storage: Storage | undefined): DatePatterns | undefined {
	const language = currentLanguage();
	if (!storage || language === undefined) return undefined;
	const patterns = makeDatePatterns(language);
	try {
		if (patterns) storage.setItem(STORAGE_KEY, JSON.stringify(patterns));
		else storage.removeItem(STORAGE_KEY);
	} catch {
		// Storage full or refused: the next start formats with Intl.
	}
	return patterns;
}
