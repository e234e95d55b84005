/**
 * The web app manifest for a given base path ('' or e.g. '/reader'). Served as
 * `<base>/manifest.webmanifest` by a prerendered route.
 *
 * Share target: the installed app appears in the system share sheet. A share opens
 * `<base>/share?title=…&text=…&url=…` (GET; any of the three may be missing, and many apps put the
 * link in `text` rather than `url`). The `/share` route renders from the offline shell like any other.
 *
 * Every address in it opens the app's folder with a query (`<base>/?to=/feed/-4`, pwa/address.ts),
 * which every server answers with the app, the archive's static folder included; the start routes
 * it. A share target's query replaces the action's, so a share opens the folder itself
 * (`<base>/?title=…`), which the start routes to `/share`.
 *
 * Ways in from the system: `web+feed:` links open the subscribe screen (`protocol_handlers`; where
 * a browser does not read them, Settings offers `registerProtocolHandler`), and an `.opml` file
 * opened with the installed app opens the import with it (`file_handlers`, read through
 * `launchQueue` by the subscriptions screen).
 *
 * Shortcuts: a long press on the installed app's icon (or its entry in a desktop's menu) offers the
 * lists a reader opens most: All articles, Fresh, Today and Starred, each the app's own list route
 * (`<base>/feed/<id>`), named in the manifest's language. Search has no address of its own (it opens
 * in place in a list), so it is no shortcut.
 */
import { DEVICE_FEED, SPECIAL_FEED } from '$lib/api/feed-ids';
import { messages as englishStart } from '$lib/i18n/generated/en';
import { messages as englishLater } from '$lib/i18n/generated/en.later';
import {
	LATER_LOADERS,
	LOADERS,
	LOCALES,
	PSEUDO_LOCALE,
	type Locale
} from '$lib/i18n/generated/locales';
import type { Messages } from '$lib/i18n/generated/messages';
import { appAddress } from './address';
import { FEED_PROTOCOL, subscribeHandlerPath } from './feed-links';
import { directionOf } from '$lib/i18n/locale.svelte';

const english: Messages = { ...englishStart, ...englishLater };

export const THEME_LIGHT = '#1f6feb';
export const THEME_DARK = '#0d1117';
export const BACKGROUND = '#ffffff';

export interface WebManifest {
	id: string;
	name: string;
	short_name: string;
	description: string;
	lang: string;
	dir: 'ltr' | 'rtl';
	start_url: string;
	scope: string;
	display: 'standalone';
	theme_color: string;
	background_color: string;
	icons: { src: string; sizes: string; type: string; purpose: 'any' | 'maskable' }[];
	share_target: {
		action: string;
		method: 'GET';
		enctype: 'application/x-www-form-urlencoded';
		params: { title: string; text: string; url: string };
	};
	protocol_handlers: { protocol: string; url: string }[];
	file_handlers: { action: string; accept: Record<string, string[]> }[];
	shortcuts: WebManifestShortcut[];
}

/** Where an opened `.opml` file goes: the subscriptions screen, whose import reads it. */
export const OPML_SCREEN = '/settings/subscriptions';

export interface WebManifestShortcut {
	name: string;
	url: string;
	icons: { src: string; sizes: string; type: string }[];
}

/** The shortcuts' lists, in the order the system shows them, and the words naming each. */
export const SHORTCUT_FEEDS = [
	{ id: SPECIAL_FEED.all, name: 'manifest_shortcut_all' },
	{ id: SPECIAL_FEED.fresh, name: 'manifest_shortcut_fresh' },
	{ id: DEVICE_FEED.today, name: 'manifest_shortcut_today' },
	{ id: SPECIAL_FEED.starred, name: 'manifest_shortcut_starred' }
] as const satisfies readonly { id: number; name: keyof Messages }[];

/**
 * The languages with a manifest of their own (every catalog's; not the pseudo-locale of the layout
 * tests): `manifest.webmanifest` speaks the source language, `manifest.<locale>.webmanifest` each
 * other one (i18n/manifest-file.js), and the page links the active language's (i18n/locale.svelte.ts).
 */
export const MANIFEST_LOCALES: readonly Locale[] = LOCALES.filter((l) => l !== PSEUDO_LOCALE);

/** The words a manifest says (both of a language's modules: the shortcuts' names are later words). */
export type ManifestMessages = Pick<
	Messages,
	'app_name' | 'app_short_name' | 'app_description' | (typeof SHORTCUT_FEEDS)[number]['name']
>;

/** A language's words for its manifest. */
export async function manifestMessages(locale: Locale): Promise<ManifestMessages> {
	const [start, later] = await Promise.all([LOADERS[locale](), LATER_LOADERS[locale]()]);
	return { ...start.messages, ...later.messages };
}

/**
 * The manifest in a language: its name, short name and description from that language's catalog,
 * `lang` and `dir` its own, its shortcuts' names; the source language unless given another.
 */
export function webManifest(
	base: string,
	messages: ManifestMessages = english,
	lang = 'en'
): WebManifest {
	const icon = (name: string, sizes: string, purpose: 'any' | 'maskable') => ({
		src: `${base}/icons/${name}`,
		sizes,
		type: 'image/png',
		purpose
	});
	return {
		id: `${base}/`,
		name: messages.app_name(),
		short_name: messages.app_short_name(),
		description: messages.app_description(),
		lang,
		dir: directionOf(lang),
		start_url: `${base}/`,
		scope: `${base}/`,
		display: 'standalone',
		theme_color: THEME_LIGHT,
		background_color: BACKGROUND,
		icons: [
			icon('icon-192.png', '192x192', 'any'),
			icon('icon-512.png', '512x512', 'any'),
			icon('maskable-192.png', '192x192', 'maskable'),
			icon('maskable-512.png', '512x512', 'maskable')
		],
		share_target: {
			action: `${base}/`,
			method: 'GET',
			enctype: 'application/x-www-form-urlencoded',
			params: { title: 'title', text: 'text', url: 'url' }
		},
		protocol_handlers: [{ protocol: FEED_PROTOCOL, url: subscribeHandlerPath(base) }],
		file_handlers: [
			{
				action: appAddress(OPML_SCREEN, base),
				accept: { 'text/x-opml': ['.opml'], 'application/xml': ['.opml'] }
			}
		],
		shortcuts: SHORTCUT_FEEDS.map(({ id, name }) => ({
			name: messages[name](),
			url: appAddress(`/feed/${id}`, base),
			icons: [{ src: `${base}/icons/icon-192.png`, sizes: '192x192', type: 'image/png' }]
		}))
	};
}
