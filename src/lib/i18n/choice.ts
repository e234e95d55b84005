/**
 * The reader's language choice, kept per device. One read and one write, so the value can move
 * into the typed settings store later without touching its users.
 */
const KEY = 'reader.language';

/** A locale code of src/lib/i18n/generated/locales.ts, or undefined: the browser's languages. */
export function readLanguageChoice(): string | undefined {
	try {
		return localStorage.getItem(KEY) ?? undefined;
	} catch {
		return undefined; // storage refused or absent (service worker, tests): the browser decides
	}
}

export function keepLanguageChoice(locale: string | undefined): void {
	try {
		if (locale === undefined) localStorage.removeItem(KEY);
		else localStorage.setItem(KEY, locale);
	} catch {
		// Not kept: the choice still applies until the page closes.
	}
}
