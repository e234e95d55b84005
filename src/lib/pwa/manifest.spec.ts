import { describe, expect, it } from 'vitest';
import { LOADERS } from '$lib/i18n/generated/locales';
import { messages as english } from '$lib/i18n/generated/en';
import { directionOf, SOURCE_LOCALE } from '$lib/i18n/locale.svelte';
import { entries, GET } from '../../routes/manifest.[locale].webmanifest/+server';
import { MANIFEST_LOCALES, webManifest, type WebManifest } from './manifest';
import { MANIFEST_FILE, MANIFEST_FILE_PATTERN, manifestFile } from '$lib/i18n/manifest-file.js';

const OTHERS = MANIFEST_LOCALES.filter((locale) => locale !== SOURCE_LOCALE);

/** The members that make it the same installed app, whatever the language. */
const sameApp = ({ id, start_url, scope, display, icons, share_target }: WebManifest) => ({
	id,
	start_url,
	scope,
	display,
	icons,
	share_target
});

/** What the build writes for a language: the prerendered route's answer. */
async function built(locale: string): Promise<WebManifest> {
	const response = await GET({ params: { locale } } as Parameters<typeof GET>[0]);
	expect(response.headers.get('content-type')).toBe('application/manifest+json');
	return (await response.json()) as WebManifest;
}

describe('the manifest in each language', () => {
	it('is written for every catalog but the source, whose manifest stays manifest.webmanifest', async () => {
		expect(OTHERS.length).toBe(10);
		expect((await entries()).map((entry) => entry.locale).sort()).toEqual([...OTHERS].sort());
		expect(manifestFile(SOURCE_LOCALE)).toBe(MANIFEST_FILE);
		const files = MANIFEST_LOCALES.map((locale) => manifestFile(locale));
		expect(new Set(files).size).toBe(MANIFEST_LOCALES.length);
		for (const file of files) expect(file).toMatch(MANIFEST_FILE_PATTERN);
		expect(manifestFile('pt-BR')).toBe('manifest.pt-BR.webmanifest');
		expect('manifest.json').not.toMatch(MANIFEST_FILE_PATTERN);
	});

	it.each(OTHERS)('%s: its own words, lang and dir; the same app otherwise', async (locale) => {
		const source = webManifest('');
		const manifest = await built(locale);
		const { messages } = await LOADERS[locale]();
		expect(manifest.lang).toBe(locale);
		expect(manifest.dir).toBe(directionOf(locale));
		expect(manifest.name).toBe(messages.app_name());
		expect(manifest.short_name).toBe(messages.app_short_name());
		expect(manifest.description).toBe(messages.app_description());
		// Every language translates the description; name and short name differ where translated.
		expect(manifest.description).not.toBe(english.app_description());
		if (messages.app_name() !== english.app_name()) expect(manifest.name).not.toBe(source.name);
		// What makes it the same installed app does not change with the language.
		expect(sameApp(manifest)).toEqual(sameApp(source));
	});

	it('Arabic reads right to left, the source language left to right', async () => {
		expect((await built('ar')).dir).toBe('rtl');
		expect(webManifest('').dir).toBe('ltr');
		expect(webManifest('').lang).toBe('en');
	});

	it('is not written for a language without a catalog, nor for the pseudo-locale', async () => {
		await expect(built('xx')).rejects.toMatchObject({ status: 404 });
		await expect(built('en-XA')).rejects.toMatchObject({ status: 404 });
		await expect(built(SOURCE_LOCALE)).rejects.toMatchObject({ status: 404 });
	});
});
