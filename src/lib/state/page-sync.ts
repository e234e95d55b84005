/**
 * The sync as the page runs it (sync-triggers.ts loads this at its first sync, never with the
 * first screen): the engine's run, with the full-text step (sync/full-text-step.ts) over the page's
 * full-text worker (content/full-text-client.ts) to keep the full text of the feeds set to it (issue 59).
 * The service worker runs the engine without it and leaves those to the page: neither the step nor
 * Readability is in its bundle.
 */
import { fetchFullText } from '$lib/content/full-text-client';
import type { SyncOptions, SyncOutcome } from '$lib/sync/engine';
import { keepFullTexts } from '$lib/sync/full-text-step';
import { runSync } from '$lib/sync/run-sync';
import { session } from './session.svelte';

export function runPageSync(options: SyncOptions): Promise<SyncOutcome> {
	return runSync({
		...options,
		fullText: ({ account, signal, now }) =>
			keepFullTexts(account, {
				signal,
				now,
				// The page is asked of public.php beside the API the reader signed in to (api/page.ts).
				fetch: (pageUrl, pageSignal) => fetchFullText(pageUrl, pageSignal, session.apiUrl)
			})
	});
}
