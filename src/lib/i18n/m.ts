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

let active: Messages | undefined;
let read = (): Messages | undefined => active;

/** Installs a catalog outside the app's current-locale rune (service worker, unit tests). */
export function useCatalog(messages: Messages): void {
	active = messages;
}

/** The app's current locale (locale.svelte.ts) reads the catalog through its rune. */
export function readCatalogWith(reader: () => Messages | undefined): void {
	read = reader;
}

/**
 * Reading a message before a catalog is installed is a bug of the start order (hooks.client.ts
 * awaits `startLocale`), said plainly rather than shown as `undefined`.
 */
export const m: Messages = new Proxy({} as Messages, {
	get(_, key: string) {
		// The rune's catalog once the app has one; the plain one before (tests, service worker).
		const messages = read() ?? active;
		if (!messages) throw new Error(`i18n: message ${key} read before a language was loaded`);
		return messages[key as keyof Messages];
	}
});
