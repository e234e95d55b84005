import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	compileAll,
	entryVariables,
	I18N_DIR,
	isLater,
	pluralForms,
	pseudoText,
	readCatalogs,
	SOURCE_LOCALE
} from '../../../scripts/i18n-compile.js';
import { directionOf, formatLocaleOf, pickLocale } from './locale.svelte';

const catalogs = readCatalogs();
const source = catalogs[SOURCE_LOCALE] ?? {};
const locales = Object.keys(catalogs);

describe('message catalogs', () => {
	it('include the source and the languages the app offers', () => {
		expect(locales).toEqual(
			expect.arrayContaining([
				'en',
				'de',
				'fr',
				'es',
				'it',
				'ru',
				'pl',
				'pt-BR',
				'zh-CN',
				'ja',
				'ar'
			])
		);
	});

	for (const locale of locales) {
		describe(locale, () => {
			const catalog = catalogs[locale] ?? {};

			it('has every key of the source, and no other', () => {
				expect(Object.keys(catalog).sort()).toEqual(Object.keys(source).sort());
			});

			it('uses the same variables as the source in every message', () => {
				for (const [key, entry] of Object.entries(catalog)) {
					const want = source[key];
					if (want === undefined) continue;
					expect({ key, vars: entryVariables(entry) }).toEqual({
						key,
						vars: entryVariables(want)
					});
					expect({ key, plural: typeof entry === 'string' }).toEqual({
						key,
						plural: typeof want === 'string'
					});
				}
			});

			it('gives exactly the plural forms Intl.PluralRules has for the locale', () => {
				const forms = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
				for (const [key, entry] of Object.entries(catalog)) {
					if (typeof entry === 'string') continue;
					expect({ key, forms: pluralForms(entry).sort() }).toEqual({
						key,
						forms: [...forms].sort()
					});
				}
			});

			it('has no empty message', () => {
				for (const [key, entry] of Object.entries(catalog)) {
					const texts =
						typeof entry === 'string' ? [entry] : pluralForms(entry).map((f) => entry[f]);
					for (const text of texts)
						expect({ key, empty: !text?.trim() }).toEqual({ key, empty: false });
				}
			});
		});
	}

	it('are compiled: src/lib/i18n/generated matches `node scripts/i18n-compile.js`', () => {
		for (const [name, text] of Object.entries(compileAll(catalogs))) {
			expect({ name, text: readFileSync(join(I18N_DIR, 'generated', name), 'utf8') }).toEqual({
				name,
				text
			});
		}
	});
});

describe('the start module', () => {
	it("holds the first screen's words; the article screen's, the search form's and the selection bar's wait in the later module", () => {
		for (const key of [
			'article_published',
			'article_pane',
			'article_gone',
			'search_open',
			'list_loading'
		]) {
			expect(isLater(key), key).toBe(false);
		}
		for (const key of [
			'article_star',
			'player_play',
			'speech_read_aloud',
			'labels_pick',
			'selection_count',
			'swipe_unpublish',
			'search_placeholder',
			'list_pull_refresh',
			'page_title',
			'feed_health_interval',
			'alert_title',
			'settings_page'
		]) {
			expect(isLater(key), key).toBe(true);
		}
	});
});

describe('the pseudo-locale', () => {
	it('is English accented and about 40 % longer, variables and plurals kept', async () => {
		const text = pseudoText('Sign in to {server}');
		expect(text).toMatch(/^\[Šíĝñ íñ ţó \{server\} .+\]$/);
		expect(text.length).toBeGreaterThanOrEqual(Math.ceil('Sign in to '.length * 1.4));
		const pseudo = (await import('./generated/en-XA.later')).messages;
		expect(pseudo.feed_health_interval({ minutes: 2 })).toContain('2 ɱíñúţéš');
	});
});

describe('compiled messages', () => {
	it('say exactly the catalog text, invisible spaces and marks included', async () => {
		for (const locale of locales) {
			const catalog = catalogs[locale] ?? {};
			const [start, later] = await Promise.all([
				import(`./generated/${locale}.ts`) as Promise<{ messages: Record<string, () => string> }>,
				import(`./generated/${locale}.later.ts`) as Promise<{
					messages: Record<string, () => string>;
				}>
			]);
			const all = { ...start.messages, ...later.messages };
			for (const [key, entry] of Object.entries(catalog)) {
				if (typeof entry !== 'string' || entryVariables(entry).length > 0) continue;
				expect({ locale, key, text: all[key]?.() }).toEqual({ locale, key, text: entry });
			}
		}
	});

	it('fill variables and choose the plural form of the locale', async () => {
		const en = (await import('./generated/en')).messages;
		const enLater = (await import('./generated/en.later')).messages;
		expect(enLater.feed_health_interval({ minutes: 1 })).toBe('The server tries every 1 minute.');
		expect(enLater.feed_health_interval({ minutes: 1500 })).toBe(
			'The server tries every 1,500 minutes.'
		);
		expect(enLater.page_title({ page: 'Settings' })).toBe('Settings · Reader');
		expect(en.status_pending({ count: 1 })).toBe('1 change waiting');
		const ru = (await import('./generated/ru')).messages;
		expect(ru.status_pending({ count: 21 })).toBe('21 изменение ждёт отправки');
		expect(ru.status_pending({ count: 3 })).toBe('3 изменения ждут отправки');
		expect(ru.status_pending({ count: 11 })).toBe('11 изменений ждут отправки');
		const pl = (await import('./generated/pl')).messages;
		expect(pl.status_pending({ count: 22 })).toBe('22 zmiany czekają');
		expect(pl.status_pending({ count: 12 })).toBe('12 zmian czeka');
	});
});

describe('the language of a browser', () => {
	it('is the first preferred language the app speaks, by region or script too', () => {
		expect(pickLocale(['de-DE', 'en'])).toBe('de');
		expect(pickLocale(['xx', 'ar-EG'])).toBe('ar');
		expect(pickLocale(['pt'])).toBe('pt-BR');
		expect(pickLocale(['pt-PT', 'en'])).toBe('pt-BR');
		expect(pickLocale(['zh-Hans-CN'])).toBe('zh-CN');
		expect(pickLocale(['ja-JP'])).toBe('ja');
		expect(pickLocale(['ru-RU'])).toBe('ru');
		expect(pickLocale(['pl'])).toBe('pl');
		expect(pickLocale(['sw'])).toBe('en');
		// The pseudo-locale of layout tests is never picked for a reader.
		expect(pickLocale(['en-XA'])).toBe('en');
		expect(pickLocale([])).toBe('en');
	});

	it('writes dates in the app language, in the reader’s region when the browser names one', () => {
		expect(formatLocaleOf('en', ['en-GB', 'de'])).toBe('en-GB');
		expect(formatLocaleOf('de', ['en-GB', 'de-AT'])).toBe('de-AT');
		// A language the reader chose that the browser does not list: that language's own dates.
		expect(formatLocaleOf('de', ['en-US'])).toBe('de');
		expect(formatLocaleOf('pt-BR', ['pt-PT'])).toBe('pt-PT');
		expect(formatLocaleOf('ja', ['ja-JP'])).toBe('ja-JP');
		expect(formatLocaleOf('en', ['en-@@', 'en-AU'])).toBe('en-AU');
	});

	it('sets the direction of right-to-left scripts', () => {
		expect(directionOf('ar')).toBe('rtl');
		expect(directionOf('he-IL')).toBe('rtl');
		expect(directionOf('de')).toBe('ltr');
	});
});
