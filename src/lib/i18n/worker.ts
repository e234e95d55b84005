/**
 * The service worker's words (new-article alerts, a replayed change's refusal) in a language: the
 * worker cannot import() a locale's module, so every language's worker words are in one module it
 * imports statically (generated/worker.ts, scripts/i18n-compile.js `WORKER_PREFIXES`), each made on
 * first use. Which language: pwa/worker-language.ts (kept by the page), read by
 * src/service-worker/language.ts.
 */
import { messages as english } from './generated/en';
import { messages as englishLater } from './generated/en.later';
import { WORKER_MESSAGES } from './generated/worker';
// Types only from the loaders' module: its dynamic imports must stay out of the worker's graph.
import type { Locale } from './generated/locales';
import { useCatalog, useFormatLocale, type Messages } from './m';

function isLocale(value: string): value is Locale {
	return Object.hasOwn(WORKER_MESSAGES, value);
}

const made = new Map<Locale, Partial<Messages>>();

/**
 * The worker's catalog in `locale`: the source's words, with the locale's own over those the
 * worker says (the rest of the source is never shown by the worker). English for a value it does
 * not know.
 */
export function useWorkerLanguage(locale: string): void {
	let words: Partial<Messages> | undefined;
	if (isLocale(locale)) {
		words = made.get(locale) ?? WORKER_MESSAGES[locale]?.();
		if (words) made.set(locale, words);
	}
	useCatalog({ ...english, ...englishLater, ...words });
	useFormatLocale(words ? locale : undefined);
}
