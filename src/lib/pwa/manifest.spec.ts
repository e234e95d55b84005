import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOADERS } from '$lib/i18n/generated/locales';
import { messages as english } from '$lib/i18n/generated/en';
import { messages as englishLater } from '$lib/i18n/generated/en.later';
import { match as isListKind } from '../../params/kind';
import { directionOf, SOURCE_LOCALE } from '$lib/i18n/locale.svelte';
import { entries, GET } from '../../routes/manifest.[locale].webmanifest/+server';
import {
	MANIFEST_LOCALES,
	manifestMessages,
	SHORTCUT_FEEDS,
	webManifest,
	type WebManifest
} from './manifest';
import { pathFromQuery } from './address';
import { MANIFEST_FILE, MANIFEST_FILE_PATTERN, manifestFile } from '$lib/i18n/manifest-file.js';

const OTHERS = MANIFEST_LOCALES.filter((locale) => locale !== SOURCE_LOCALE);

/** The members that make it the same installed app, whatever the language. */
const sameApp = ({
	id,
	start_url,
	scope,
	display,
	icons,
	share_target,
	protocol_handlers,
	file_handlers,
	shortcuts
}: WebManifest) => ({
	id,
	start_url,
	scope,
	display,
	icons,
	share_target,
	protocol_handlers,
	file_handlers,
	shortcuts: shortcuts.map(({ url, icons }) => ({ url, icons }))
});

/**
 * The app's route an address inside `base` opens (the folder and `?to=`, as the start reads it:
 * hooks.client.ts), or why none does (src/routes/(app)/[kind=kind]/[id]).
 */
function routeOf(url: string, base: string): string {
	const at = new URL(url, 'http://app.test');
	const path = pathFromQuery(at.pathname.slice(base.length), at.search) ?? '';
	const match = /^\/([^/]+)\/(-?\d+)$/.exec(path);
	if (!url.startsWith(`${base}/?`) || !match) return `no list route: ${url}`;
	return isListKind(match[1] ?? '') ? '[kind=kind]/[id]' : `no such list kind: ${match[1]}`;
}

/** The icons the build ships (static/icons/), by their address under `base`. */
const SHIPPED_ICONS = readdirSync(join(process.cwd(), 'static/icons'));

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

	it.each(MANIFEST_LOCALES)(
		'%s: shortcuts to All articles, Fresh, Today and Starred, in its words, to list routes that exist, with shipped icons',
		async (locale) => {
			const manifest = locale === SOURCE_LOCALE ? webManifest('/reader') : await built(locale);
			const base = locale === SOURCE_LOCALE ? '/reader' : '';
			const messages = await manifestMessages(locale);
			expect(manifest.shortcuts.map((s) => s.name)).toEqual(
				SHORTCUT_FEEDS.map(({ name }) => messages[name]())
			);
			expect(manifest.shortcuts.map((s) => s.url)).toEqual(
				['-4', '-3', '-100', '-1'].map((id) => `${base}/?to=/feed/${id}`)
			);
			for (const shortcut of manifest.shortcuts) {
				expect(shortcut.name.trim()).not.toBe('');
				expect(routeOf(shortcut.url, base)).toBe('[kind=kind]/[id]');
				for (const icon of shortcut.icons) {
					expect(icon.src.startsWith(`${base}/icons/`)).toBe(true);
					expect(SHIPPED_ICONS).toContain(icon.src.slice(`${base}/icons/`.length));
				}
				expect(shortcut.icons.length).toBeGreaterThan(0);
			}
			expect(new Set(manifest.shortcuts.map((s) => s.name)).size).toBe(SHORTCUT_FEEDS.length);
			// Translated: every language but the source names them in its own words ("Today" aside in
			// none: each catalog has its own word for it too).
			if (locale !== SOURCE_LOCALE) {
				const source = webManifest('').shortcuts.map((s) => s.name);
				manifest.shortcuts.forEach((s, i) => expect(s.name).not.toBe(source[i]));
			} else {
				expect(manifest.shortcuts.map((s) => s.name)).toEqual(
					SHORTCUT_FEEDS.map(({ name }) => englishLater[name]())
				);
			}
		}
	);

	it('opens web+feed links in the subscribe screen and .opml files in the import, from the folder', () => {
		const manifest = webManifest('/reader');
		expect(manifest.protocol_handlers).toEqual([
			{ protocol: 'web+feed', url: '/reader/?to=/subscribe&url=%s' }
		]);
		// The browser puts the escaped link where %s is; the start opens the subscribe screen with it.
		const link = encodeURIComponent('web+feed:https://example.org/feed.xml');
		const opened = new URL(
			manifest.protocol_handlers[0]?.url.replace('%s', link) ?? '',
			'http://a'
		);
		expect(pathFromQuery(opened.pathname.slice('/reader'.length), opened.search)).toBe(
			`/subscribe?url=${link}`
		);
		expect(manifest.file_handlers).toEqual([
			{
				action: '/reader/?to=/settings/subscriptions',
				accept: { 'text/x-opml': ['.opml'], 'application/xml': ['.opml'] }
			}
		]);
		// A share's query replaces the action's: it opens the folder, which the start sends to /share.
		expect(manifest.share_target.action).toBe('/reader/');
		expect(pathFromQuery('/', '?title=T&url=https%3A%2F%2Fx.test%2F')).toBe(
			'/share?title=T&url=https%3A%2F%2Fx.test%2F'
		);
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
