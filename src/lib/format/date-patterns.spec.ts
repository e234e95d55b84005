import { afterEach, describe, expect, it, vi } from 'vitest';
import { DATE_STYLES, formatWith, readDatePatterns, type DateStyle } from './date-patterns';
import { keepDatePatterns, makeDatePatterns } from './date-patterns-make';
import { MemoryStorage } from '$support/memory-storage';
import { longDate, shortDate } from './format';
import { useFormatLocale } from '$lib/i18n/m';

const STYLES = Object.keys(DATE_STYLES) as DateStyle[];
const made = { language: 'x', agent: 'test' };

/** Dates spread over 30 years, every hour and minute pattern (a fixed seed: reproducible). */
function spread(count: number): Date[] {
	let seed = 20261122;
	const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
	const from = new Date(2000, 0, 1).getTime();
	const to = new Date(2030, 11, 31).getTime();
	return Array.from({ length: count }, () => new Date(from + Math.floor(next() * (to - from))));
}

/** Runs `fn` and asserts that it built no Intl.DateTimeFormat (no locale data loaded). */
function withoutIntl<T>(fn: () => T): T {
	const make = vi.spyOn(Intl, 'DateTimeFormat');
	try {
		const result = fn();
		expect(make).not.toHaveBeenCalled();
		return result;
	} finally {
		make.mockRestore();
	}
}

afterEach(() => {
	vi.unstubAllGlobals();
	useFormatLocale(undefined);
});

describe('date patterns', () => {
	const locales = [
		'en-US',
		'en-GB',
		'de-DE',
		'fr-FR',
		'es-ES',
		'it-IT',
		'nl-NL',
		'pt-BR',
		'sv-SE',
		'fi-FI',
		'pl-PL',
		'ru-RU',
		'uk-UA',
		'cs-CZ',
		'tr-TR',
		'el-GR',
		'he-IL',
		'ja-JP',
		'ko-KR',
		'zh-CN',
		'zh-TW',
		'hi-IN',
		'th-TH',
		'ar-EG',
		'fa-IR',
		'en-US-u-hc-h23',
		'ja-JP-u-hc-h11'
	];

	it.each(locales)('%s: write exactly what Intl writes, or are not made', (locale) => {
		const patterns = makeDatePatterns(made, locale);
		if (!patterns) return;
		for (const style of STYLES) {
			const intl = new Intl.DateTimeFormat(locale, DATE_STYLES[style]);
			for (const date of spread(400)) {
				expect(formatWith(patterns, style, date), `${style} ${date.toISOString()}`).toBe(
					intl.format(date)
				);
			}
		}
	});

	it('are made for common languages', () => {
		for (const locale of ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'ja-JP', 'ru-RU']) {
			expect(makeDatePatterns(made, locale), locale).toBeDefined();
		}
		const us = makeDatePatterns(made, 'en-US');
		expect(us && formatWith(us, 'time', new Date(2024, 10, 22, 13, 5))).toBe(
			new Intl.DateTimeFormat('en-US', DATE_STYLES.time).format(new Date(2024, 10, 22, 13, 5))
		);
	});

	it('are not made where the digits are not Latin (what they cannot rebuild)', () => {
		expect(new Intl.DateTimeFormat('ar-EG', DATE_STYLES.time).format(new Date())).not.toMatch(
			/[0-9]/
		);
		expect(makeDatePatterns(made, 'ar-EG')).toBeUndefined();
	});

	it('are kept for the language and browser they were made for, and read back only for them', () => {
		const storage = new MemoryStorage();
		vi.stubGlobal('navigator', { language: 'de-DE', userAgent: 'Chromium/156' });
		const kept = keepDatePatterns(storage);
		expect(kept?.language).toBe('de-DE');
		expect(readDatePatterns(storage)).toEqual(kept);
		vi.stubGlobal('navigator', { language: 'fr-FR', userAgent: 'Chromium/156' });
		expect(readDatePatterns(storage)).toBeUndefined();
		vi.stubGlobal('navigator', { language: 'de-DE', userAgent: 'Chromium/157' });
		expect(readDatePatterns(storage)).toBeUndefined();
	});

	it('are made once: a start with current patterns does not make them again', () => {
		const storage = new MemoryStorage();
		vi.stubGlobal('navigator', { language: 'en-GB', userAgent: 'Chromium/156' });
		const first = keepDatePatterns(storage);
		expect(withoutIntl(() => keepDatePatterns(storage))).toEqual(first);
	});

	it('keep that a language cannot have them, so it is not tried on every start', () => {
		const storage = new MemoryStorage();
		vi.stubGlobal('navigator', { language: 'ar-EG', userAgent: 'Chromium/156' });
		expect(keepDatePatterns(storage, 'ar-EG')).toBeUndefined();
		expect(storage.getItem('reader.datePatterns')).toContain('"none":true');
		expect(readDatePatterns(storage)).toBeUndefined();
		expect(withoutIntl(() => keepDatePatterns(storage, 'ar-EG'))).toBeUndefined();
	});

	it('read as missing when the kept value is garbage or of another shape', () => {
		const storage = new MemoryStorage();
		vi.stubGlobal('navigator', { language: 'en-US', userAgent: 'Chromium/156' });
		for (const bad of [
			'{',
			'null',
			'42',
			'{"version":2}',
			'{"version":1,"language":"en-US","agent":"Chromium/156"}'
		]) {
			storage.setItem('reader.datePatterns', bad);
			expect(readDatePatterns(storage), bad).toBeUndefined();
		}
		expect(readDatePatterns(undefined)).toBeUndefined();
	});

	it('are made and kept for the app’s language, not the browser’s', () => {
		const storage = new MemoryStorage();
		vi.stubGlobal('navigator', { language: 'en-US', userAgent: 'Chromium/156' });
		useFormatLocale('de');
		const kept = keepDatePatterns(storage);
		expect(kept?.language).toBe('de');
		expect(formatWith(kept!, 'dayMonth', new Date(2024, 2, 5))).toBe('5. März');
		useFormatLocale('fr');
		expect(readDatePatterns(storage)).toBeUndefined();
	});
});

describe('dates on screen', () => {
	it('follow the app’s language, and its change', () => {
		vi.stubGlobal('navigator', { language: 'en-US', userAgent: 'Chromium/156' });
		const may = new Date(2024, 4, 9, 14, 5).getTime() / 1000;
		const later = new Date(2025, 0, 1);
		useFormatLocale('de');
		expect(shortDate(may, later)).toBe('9. Mai 2024');
		expect(longDate(may)).toContain('Mai');
		useFormatLocale('ja');
		expect(longDate(may)).toContain('2024年5月9日');
		useFormatLocale('en-GB');
		expect(longDate(may)).toMatch(/^9 May 2024/);
	});
});
