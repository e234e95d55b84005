/**
 * The language of the service worker's words (new-article alerts, a replayed change's refusal):
 * the page keeps the locale it speaks in the `settings` store (hooks.client.ts, through
 * i18n `followLocale`), and the worker reads it before it syncs or replays
 * (src/service-worker/language.ts); the words themselves are i18n/worker.ts's. The page's side
 * only: importing the worker's words here would bring every language's into the page.
 */
import { putStored, isString, storedKey } from '$lib/db/kv';

/** The page's active locale, for the worker (per device, like the reader's choice). */
export const WORKER_LANGUAGE = storedKey<string>({
	store: 'settings',
	name: 'i18n.language',
	owner: 'pwa/worker-language.ts',
	parse: isString,
	fallback: () => 'en'
});

/** The page: keeps the language it speaks, for the worker. */
export async function keepWorkerLanguage(locale: string): Promise<void> {
	await putStored(WORKER_LANGUAGE, locale);
}
