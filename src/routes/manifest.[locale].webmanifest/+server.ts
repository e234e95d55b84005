// The web app manifest in each language but the source's (that one is /manifest.webmanifest),
// written at build time from the language's catalog: `manifest.de.webmanifest`, … The page's
// `<link rel="manifest">` points at the active language's (i18n/locale.svelte.ts), so a reader who
// installs the app in German gets a German name and description.
import { error } from '@sveltejs/kit';
import { base } from '$app/paths';
import { SOURCE_LOCALE } from '$lib/i18n/locale.svelte';
import { MANIFEST_LOCALES, manifestMessages, webManifest } from '$lib/pwa/manifest';
import type { EntryGenerator, RequestHandler } from './$types';

export const prerender = true;

const OTHERS = MANIFEST_LOCALES.filter((locale) => locale !== SOURCE_LOCALE);

export const entries: EntryGenerator = () => OTHERS.map((locale) => ({ locale }));

export const GET: RequestHandler = async ({ params }) => {
	const locale = OTHERS.find((l) => l === params.locale);
	if (!locale) error(404, 'No manifest in that language');
	const messages = await manifestMessages(locale);
	return new Response(JSON.stringify(webManifest(base, messages, locale), null, '\t'), {
		headers: { 'content-type': 'application/manifest+json' }
	});
};
