import { afterEach, expect, it } from 'vitest';
import { useFormatLocale } from '$lib/i18n/m';
import { formatBytes } from './storage';

afterEach(() => useFormatLocale(undefined));

it('writes sizes in the app’s language, with the digits the page always showed', () => {
	useFormatLocale('en');
	expect(formatBytes(12.34 * 1024 ** 2)).toBe('12.3 MB');
	expect(formatBytes(12 * 1024 ** 2)).toBe('12.0 MB');
	expect(formatBytes(undefined)).toBe('unknown');
	useFormatLocale('fr');
	expect(formatBytes(1.5 * 1024 ** 3)).toMatch(/^1,50\sGo$/u);
	useFormatLocale('ru');
	expect(formatBytes(512 * 1024)).toMatch(/^512\sкБ$/u);
});
