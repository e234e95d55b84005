/**
 * The current language (docs/i18n.md). `m.someKey(params)` reads the active locale's compiled
 * message; a component that calls it in its markup re-renders when the language changes (the
 * catalog is a rune), so a change applies without a reload. Only the active locale's modules are
 * fetched (generated/locales.ts): at start the words of the first screens, and the words of the
 * later ones (Settings, the check-up) when a route that shows them loads (`loadAllMessages`).
 */
import { LATER_LOADERS, LOADERS, LOCALES, PSEUDO_LOCALE, type Locale } from './generated/locales';
import type { Messages } from './generated/messages';
import { keepLanguageChoice, readLanguageChoice } from './choice';
import { loadAllWith, readCatalogWith, readFormatLocaleWith, useCatalog } from './m';
import { manifestFile } from './manifest-file.js';

export { LOCALES, type Locale, type Messages };

export const SOURCE_LOCALE: Locale = 'en';

/** The languages a reader is offered: every compiled one but the pseudo-locale of layout tests. */
const OFFERED: readonly Locale[] = LOCALES.filter((l) => l !== PSEUDO_LOCALE);

/**
 * The languages Settings lists: in development the pseudo-locale too (English ~40 % longer and
 * accented, to see what clips). A test chooses it through the kept choice (`reader.language`).
 */
export const LANGUAGE_CHOICES: readonly Locale[] = import.meta.env.DEV ? LOCALES : OFFERED;

/** Scripts written right to left (by language subtag). */
const RTL = new Set(['ar', 'fa', 'he', 'ur', 'ps', 'yi', 'ckb', 'dv', 'sd', 'ug']);

export function directionOf(locale: string): 'ltr' | 'rtl' {
	return RTL.has(locale.split('-')[0]?.toLowerCase() ?? '') ? 'rtl' : 'ltr';
}

function isLocale(value: string | undefined): value is Locale {
	return (LOCALES as readonly string[]).includes(value ?? '');
}

/**
 * The first of the reader's languages (navigator.languages) the app speaks: an exact tag, else
 * the same language in another region or script (`de-AT` → `de`, `pt` → `pt-BR`, `zh-Hans` →
 * `zh-CN`); English when none fits.
 */
export function pickLocale(preferred: readonly string[]): Locale {
	for (const tag of preferred) {
		const exact = OFFERED.find((l) => l.toLowerCase() === tag.toLowerCase());
		if (exact) return exact;
		const language = tag.split('-')[0]?.toLowerCase();
		const same = OFFERED.find((l) => l.split('-')[0] === language);
		if (same) return same;
	}
	return SOURCE_LOCALE;
}

/**
 * The locale dates are written in for the app's `locale`: the first of the reader's languages
 * that is the same language (`en-GB` for English: 22 Nov, 14:05 rather than Nov 22, 2:05 PM;
 * `pt-PT` for the Brazilian catalog), else the app's locale itself — never the browser's language
 * when the reader chose another (German dates in a German app on an English browser).
 */
export function formatLocaleOf(locale: Locale, preferred: readonly string[]): string {
	const language = locale.split('-')[0];
	for (const tag of preferred) {
		if (tag.split('-')[0]?.toLowerCase() !== language) continue;
		try {
			const [canonical] = Intl.getCanonicalLocales(tag);
			if (canonical) return canonical;
		} catch {
			// Not a well-formed tag: the next one.
		}
	}
	return locale;
}

let current = $state.raw<{
	locale: Locale;
	messages: Partial<Messages> | undefined;
	whole: boolean;
	format: string | undefined;
}>({ locale: SOURCE_LOCALE, messages: undefined, whole: false, format: undefined });

readCatalogWith(() => current.messages);
readFormatLocaleWith(() => current.format);
loadAllWith(() => (current.whole ? undefined : loadAllMessages()));

/** The active locale. */
export function locale(): Locale {
	return current.locale;
}

/** Calls `listener` with the active locale now and after each change (until the returned stop). */
export function followLocale(listener: (locale: Locale) => void): () => void {
	return $effect.root(() => {
		$effect(() => listener(current.locale));
	});
}

/** The reader's own choice, or undefined when the browser's languages decide. */
let chosen = $state<Locale | undefined>(undefined);
export function chosenLocale(): Locale | undefined {
	return chosen;
}

/** Installs a loaded catalog: the document's `lang` and `dir` follow. */
export function useMessages(locale: Locale, messages: Partial<Messages>, whole = true): void {
	const languages = typeof navigator === 'undefined' ? [] : navigator.languages;
	current = { locale, messages, whole, format: formatLocaleOf(locale, languages) };
	useCatalog(messages);
	if (typeof document !== 'undefined') {
		document.documentElement.lang = locale;
		document.documentElement.dir = directionOf(locale);
		linkManifest(locale);
	}
}

/**
 * Points the page's `<link rel="manifest">` at the language's manifest (i18n/manifest-file.js),
 * beside the one app.html names, so installing the app gives it a name in the reader's language.
 */
function linkManifest(locale: Locale): void {
	const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
	if (!link) return;
	const file = manifestFile(locale === PSEUDO_LOCALE ? SOURCE_LOCALE : locale, SOURCE_LOCALE);
	const href = new URL(file, link.href).href;
	if (link.href !== href) link.href = href;
}

/** The locale's words: those of the first screens, and with `whole` those of the later ones. */
async function load(locale: Locale, whole: boolean): Promise<void> {
	const [start, later] = await Promise.all([
		LOADERS[locale](),
		whole ? LATER_LOADERS[locale]() : undefined
	]);
	useMessages(locale, { ...start.messages, ...later?.messages }, whole);
}

/** At start (hooks.client.ts): the kept choice, else the browser's languages. */
export function startLocale(): Promise<void> {
	const kept = readLanguageChoice();
	chosen = isLocale(kept) ? kept : undefined;
	const languages = typeof navigator === 'undefined' ? [] : navigator.languages;
	return load(chosen ?? pickLocale(languages), false);
}

/**
 * A route that shows later screens' words (Settings, the check-up) awaits this in its `load`; an
 * API error before it reaches the app (api/errors.ts `failWithWords`); the app asks for it once the
 * first screen is painted (hooks.client.ts).
 */
export async function loadAllMessages(): Promise<void> {
	if (current.whole) return;
	const asked = current.locale;
	const { messages } = await LATER_LOADERS[asked]();
	// A language chosen meanwhile has loaded its own words.
	if (current.locale === asked && !current.whole) {
		useMessages(asked, { ...current.messages, ...messages });
	}
}

/** Settings: a language, or undefined for the browser's; kept on this device, applied at once. */
export async function chooseLocale(locale: Locale | undefined): Promise<void> {
	chosen = locale;
	keepLanguageChoice(locale);
	await load(locale ?? pickLocale(navigator.languages), current.whole);
}
