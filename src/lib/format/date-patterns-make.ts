/**
 * Making the headline date patterns (date-patterns.ts) with Intl and keeping them: after the first
 * screen (format.ts updateDatePatterns), so the first screen's code only reads and applies them.
 */
import {
	DATE_STYLES,
	STORAGE_KEY,
	STYLES,
	currentBrowser,
	formatWith,
	kept,
	type DatePatterns,
	type DateStyle,
	type Field,
	type MadeFor,
	type NoPatterns,
	type Piece,
	type StylePattern
} from './date-patterns';

const FIELDS = new Set<string>(['hour', 'minute', 'day', 'month', 'year', 'dayPeriod']);

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

/**
 * Makes the patterns (with Intl) unless what is kept is still current, and keeps them — or keeps
 * that this language cannot have them. Returns the patterns to use.
 */
export function keepDatePatterns(
	storage: Storage | undefined,
	/** For tests: the locale to make them for, when not the one they are kept for. */
	locale?: string
): DatePatterns | undefined {
	const current = kept(storage);
	if (current) return 'none' in current ? undefined : current;
	const browser = currentBrowser();
	if (!storage || !browser) return undefined;
	const patterns = makeDatePatterns(browser, locale ?? browser.language);
	const none: NoPatterns = { version: 1, ...browser, none: true };
	try {
		storage.setItem(STORAGE_KEY, JSON.stringify(patterns ?? none));
	} catch {
		// Storage full or refused: the next start formats with Intl.
	}
	return patterns;
}
