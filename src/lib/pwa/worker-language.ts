/**
 * The language of the service worker's words (new-article alerts, a replayed change's refusal):
 * the page keeps the locale it speaks in the `settings` store (hooks.client.ts, through
 * i18n `followLocale`), and the worker reads it before it syncs or replays
 * (`speakStoredLanguage`); the words themselves are i18n/worker.ts's.
 */
import { getStored, isString, putStored, storedKey } from '$lib/db/kv';
import { useWorkerLanguage } from '$lib/i18n/worker';

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

/** The worker: before it speaks, the language the page last spoke (English when none is kept). */
export async function speakStoredLanguage(): Promise<void> {
	try {
		useWorkerLanguage(await getStored(WORKER_LANGUAGE));
	} catch {
		useWorkerLanguage('en'); // storage unreadable: the source
	}
}
