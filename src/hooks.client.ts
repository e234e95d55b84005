import type { ClientInit } from '@sveltejs/kit';
import { resolve } from '$app/paths';
import { afterFirstScreen, startEarlyReads } from '$lib/boot/early-reads';
import { releaseSnapshot } from '$lib/boot/snapshot-release';
import { updateDatePatterns } from '$lib/format/format';
import { followLocale, loadAllMessages, startLocale } from '$lib/i18n';
import { RECOVERY_WAIT_MS } from '$lib/db/stuck';
import { markOnce } from '$lib/perf/marks';
import { pathFromQuery } from '$lib/pwa/address';
import { listKey, listQueryFor, type ListKind } from '$lib/state/headlines.svelte';
import { resumeAtStart } from '$lib/state/resume';
import { settings } from '$lib/state/settings.svelte';
import { journalHasEntries } from '$lib/state/write-ahead-check';

/** `/feed/-4`, `/cat/3/1234` (an article in it), `/tag/linux`: the list in the address bar. */
const LIST_PATH = /^\/(feed|cat|tag)\/([^/]+)(?:\/\d+)?\/?$/;

/**
 * Runs once as the app starts, before the router loads the first screen's code: the start's
 * IndexedDB reads overlap that loading instead of following it (src/lib/boot/early-reads.ts).
 */
export const init: ClientInit = async () => {
	markOnce('app:init');
	// The active language's messages (one small file) arrive while the first screen's code loads;
	// the router starts once they are in, so no screen paints a word before its language is known.
	const language = startLocale();
	const base = resolve('/').slice(0, -1);
	let path = location.pathname.slice(base.length);
	// An address the app handed out (`<base>/?to=/feed/6/123`, pwa/address.ts): the folder, which
	// every server answers with the app, naming the screen. Opened as that screen's own path.
	const named = pathFromQuery(path, location.search);
	if (named !== undefined) {
		history.replaceState(history.state, '', base + named + location.hash);
		path = location.pathname.slice(base.length);
	}
	// The start address (`/`) resumes where the reader left off (state/resume.ts); any other
	// address wins. Changed before the router reads it, so the first screen is the resumed one.
	const resumed = location.search || location.hash ? path : resumeAtStart(path);
	if (resumed !== path) {
		history.replaceState(history.state, '', base + resumed);
		path = resumed;
	}
	const match = LIST_PATH.exec(path);
	let id: string | undefined;
	try {
		id = match?.[2] === undefined ? undefined : decodeURIComponent(match[2]);
	} catch {
		id = undefined; // a malformed address: the router shows its error, nothing to read early
	}
	const kind = match?.[1] as ListKind | undefined;
	// A change a page showed but could not queue before it went (a reload right after a tap): queued
	// now, before the start reads the cache it changes (state/write-ahead.ts). Seldom anything.
	if (journalHasEntries()) {
		const recovery = import('$lib/state/write-ahead-recover')
			.then(({ recoverLeftChanges }) => recoverLeftChanges())
			.catch(() => undefined);
		await Promise.race([recovery, new Promise((done) => setTimeout(done, RECOVERY_WAIT_MS))]);
	}
	startEarlyReads(
		kind && id !== undefined ? listKey(listQueryFor(kind, id, settings.values)) : undefined
	);
	void afterFirstScreen().then(() => {
		// The worker's copy of the last screen (boot/start-snapshot.ts) goes once the app's own rows are
		// painted under it; from then on the app keeps that copy current for the next start.
		releaseSnapshot();
		// The later words (Settings, the check-up, the API errors' texts: scripts/i18n-compile.js),
		// so a failure seldom has to wait for them (api/errors.ts failWithWords).
		void loadAllMessages();
		// The worker's alerts and refusals speak the language the page speaks (pwa/worker-language.ts).
		void import('$lib/pwa/worker-language').then(({ keepWorkerLanguage }) =>
			followLocale((locale) => void keepWorkerLanguage(locale).catch(() => undefined))
		);
		void import('$lib/boot/start-snapshot').then(({ keepSnapshot }) => keepSnapshot(base));
		// The date patterns of the next start, when the browser is idle after this first screen.
		if (typeof requestIdleCallback === 'function')
			requestIdleCallback(() => void updateDatePatterns());
		else setTimeout(() => void updateDatePatterns(), 0);
	});
	await language;
};
