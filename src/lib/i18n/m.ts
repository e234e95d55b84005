/**
 * `m.someKey(params)`: the active catalog's message. Plain TypeScript, so every layer (the service
 * worker too) can say things; in the app, locale.svelte.ts makes the catalog a rune, so markup that
 * calls `m.…` re-renders when the language changes.
 */
import type { Messages } from './generated/messages';

export type { Messages };

/** The keys of messages without variables: a table of them can map codes to words. */
export type PlainKey = {
	[K in keyof Messages]: Parameters<Messages[K]> extends [] ? K : never;
}[keyof Messages];

let active: Partial<Messages> | undefined;
let read = (): Partial<Messages> | undefined => active;

/** Installs a catalog outside the app's current-locale rune (service worker, unit tests). */
export function useCatalog(messages: Partial<Messages>): void {
	active = messages;
}

/** The app's current locale (locale.svelte.ts) reads the catalog through its rune. */
export function readCatalogWith(reader: () => Partial<Messages> | undefined): void {
	read = reader;
}

let formatTag: string | undefined;
let readFormat = (): string | undefined => formatTag;

/** Sets the locale dates and numbers are written in outside the app's rune (service worker, tests). */
export function useFormatLocale(tag: string | undefined): void {
	formatTag = tag;
}

/** The app's current locale (locale.svelte.ts) gives it through its rune. */
export function readFormatLocaleWith(reader: () => string | undefined): void {
	readFormat = reader;
}

/**
 * The locale dates are written in (Intl.DateTimeFormat): the app's language, in the reader's own
 * region when the browser names one for that language (locale.svelte.ts `formatLocaleOf`);
 * undefined before the app has a language (Intl then uses the browser's). Markup that formats a
 * date with it re-renders when the language changes.
 */
export function formatLocale(): string | undefined {
	return readFormat() ?? formatTag;
}

let loadAll = (): Promise<void> | undefined => undefined;

/** The app's current locale (locale.svelte.ts) fetches a locale's later words when asked. */
export function loadAllWith(loader: () => Promise<void> | undefined): void {
	loadAll = loader;
}

/**
 * Resolves once every word of the active locale is in (the later module's too: Settings, the
 * check-up, the API errors' texts); undefined when they already are (or everything was installed
 * at once: the service worker, unit tests).
 */
export function whenAllMessages(): Promise<void> | undefined {
	return loadAll();
}

/** The active catalog's messages: `m.settings_page()`. */
export const m: Messages = new Proxy({} as Messages, {
	get(_, key: string) {
		// The rune's catalog once the app has one; the plain one before (tests, service worker).
		const message = (read() ?? active)?.[key as keyof Messages];
		// A bug of the start order (hooks.client.ts awaits `startLocale`) or of a route that shows a
		// later screen's words without awaiting `loadAllMessages` in its load: said plainly.
		if (!message) throw new Error(`i18n: message ${key} read before its words were loaded`);
		return message;
	}
});
