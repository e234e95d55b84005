/**
 * The worker speaks the language the page last spoke (pwa/worker-language.ts keeps it): read
 * before each sync and replay, so an alert or a refused change's words follow a change made
 * meanwhile. English when none is kept or the store cannot be read.
 */
import { getStored } from '../lib/db/kv';
import { useWorkerLanguage } from '../lib/i18n/worker';
import { WORKER_LANGUAGE } from '../lib/pwa/worker-language';

export async function speakStoredLanguage(): Promise<void> {
	try {
		useWorkerLanguage(await getStored(WORKER_LANGUAGE));
	} catch {
		useWorkerLanguage('en'); // storage unreadable: the source
	}
}
