/**
 * The headline dates of the first screen without Intl. The first Intl.DateTimeFormat a page builds
 * loads the locale's date data (ICU): 15–30 ms, ~60 ms with the CPU slowed four times — the largest
 * single piece of work before a start's first headline. After the first screen, when none are kept
 * for this language and browser version, the locale's three headline formats are taken apart with
 * formatToParts into patterns (literals, fields, month names, day periods) and kept in
 * localStorage; the next starts render their rows from them. A pattern is kept only if it
 * reproduces Intl's own output for every hour and every month of sample dates; otherwise (other
 * digits, other calendars, unusual fields) the rows use Intl.
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

/** What the patterns were made for: another language or another browser version makes them stale. */
export interface MadeFor {
	/** navigator.language */
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

const STYLES = Object.keys(DATE_STYLES) as DateStyle[];
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
	madeFor: MadeFor,
	locale?: string | string[]
): DatePatterns | undefined {
	try {
		const time = new Intl.DateTimeFormat(locale, DATE_STYLES.time);
		const options = time.resolvedOptions();
		const hourCycle = options.hourCycle ?? 'h23';
		const probe = (f: Intl.DateTimeFormat, date: Date, type: string): string =>
			f.formatToParts(date).find((p) => p.type === type)?.value ?? '';
		const formats: Record<DateStyle, Intl.DateTimeFormat> = {
			time,
			dayMonth: new Intl.DateTimeFormat(locale, DATE_STYLES.dayMonth),
			full: new Intl.DateTimeFormat(locale, DATE_STYLES.full)
		};
		const styles = {} as Record<DateStyle, StylePattern>;
		for (const style of STYLES) {
			const format = formats[style];
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
			...madeFor,
			hourCycle,
			dayPeriods: [
				probe(time, new Date(2024, 0, 1, 9), 'dayPeriod'),
				probe(time, new Date(2024, 0, 1, 21), 'dayPeriod')
			],
			styles
		};
		const dates = samples();
		for (const style of STYLES) {
			for (const date of dates) {
				if (formatWith(patterns, style, date) !== formats[style].format(date)) return undefined;
			}
		}
		return patterns;
	} catch {
		return undefined;
	}
}

/** Kept where the locale cannot be rebuilt exactly, so that it is not tried on every start. */
interface NoPatterns extends MadeFor {
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

function currentBrowser(): MadeFor | undefined {
	if (typeof navigator === 'undefined') return undefined;
	return { language: navigator.language, agent: navigator.userAgent };
}

function kept(storage: Storage | undefined): DatePatterns | NoPatterns | undefined {
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

/**
 * Makes the patterns (with Intl) unless what is kept is still current, and keeps them — or keeps
 * that this language cannot have them. Returns the patterns to use.
 */
export function keepDatePatterns(
	storage: Storage | undefined,
	/** For tests: the locale Intl would use by default. */
	locale?: string
): DatePatterns | undefined {
	const current = kept(storage);
	if (current) return 'none' in current ? undefined : current;
	const browser = currentBrowser();
	if (!storage || !browser) return undefined;
	const patterns = makeDatePatterns(browser, locale);
	const none: NoPatterns = { version: 1, ...browser, none: true };
	try {
		storage.setItem(STORAGE_KEY, JSON.stringify(patterns ?? none));
	} catch {
		// Storage full or refused: the next start formats with Intl.
	}
	return patterns;
}
