/**
 * The app's lifecycle: what runs in the background while the reader's screens are open, started
 * in one place, by the app layout (`routes/(app)/+layout.svelte`), and stopped when it goes or the
 * reader signs out. Nothing here starts by being imported.
 *
 * - the outbox's replay triggers (replay-triggers.ts), loaded once the first screen has painted
 *   (the start's replay waited for it anyway; an `online` or visible-again before it is covered by
 *   that replay): when the browser is online or the tab visible again, the retries; with them the
 *   offline status (connection, pending changes, storage);
 * - the counters read again once the reader's queued changes have been sent (counter-sync.ts);
 * - the write-ahead journal's watch over the other pages' changes (write-ahead-recover.ts);
 * - the sync triggers (sync-triggers.ts), loaded after the first screen: their first sync waits
 *   for it anyway, and the first screen's JS stays within its budget. New-article alerts are shown
 *   by the sync (sync/run-sync.ts).
 *
 * Before the router, hooks.client.ts starts what every start needs whether signed in or not: the
 * early IndexedDB reads, the resumed address, the start snapshot (boot/). What the session holds
 * is forgotten through the account events (db/account-events.ts), not here.
 */
import { afterFirstScreen } from '$lib/boot/early-reads';
import { onAccountEvent } from '$lib/db/account-events';
import { syncCountersWithOutbox } from './counter-sync';

let stopApp: (() => void) | undefined;

/** Starts the app's background work once; returns the function that stops all of it. */
export function startApp(): () => void {
	if (stopApp) return stopApp;
	let stopped = false;
	let stopSync: (() => void) | undefined;
	let stopReplay: (() => void) | undefined;
	void afterFirstScreen()
		.then(() => import('./replay-triggers'))
		.then(({ startReplayTriggers }) => {
			if (!stopped) stopReplay = startReplayTriggers();
		});
	const stopCounters = syncCountersWithOutbox();
	// The write-ahead journal (write-ahead-recover.ts): changes only its durable copy kept (a
	// browser killed outright) queued, earlier changes' settled marks tidied, and the changes other
	// pages write ahead from now on watched, in case such a page goes first.
	let stopWatching: (() => void) | undefined;
	void afterFirstScreen()
		.then(() => import('./write-ahead-recover'))
		.then(({ recoverAfterStart, watchOtherPages }) => {
			if (stopped) return;
			stopWatching = watchOtherPages();
			return recoverAfterStart();
		})
		.catch(() => undefined);
	// The reader's settings kept by the plugin (issue 60): applied and shared from now on.
	let stopShared: (() => void) | undefined;
	void afterFirstScreen()
		.then(() => import('./shared-settings.svelte'))
		.then(({ sharedSettings }) => {
			if (!stopped) stopShared = sharedSettings.start();
		})
		.catch(() => undefined);
	void afterFirstScreen()
		.then(() => import('./sync-triggers'))
		.then(({ startSyncTriggers }) => {
			if (!stopped) stopSync = startSyncTriggers();
		});
	// Signed out: nothing more runs for the account (the sign-out already waited for a running
	// replay or sync before its wipe, db/device.ts withReplayAndSyncStopped).
	const stopListening = onAccountEvent((event) => {
		if (event.type === 'signed-out') stopApp?.();
	});
	const stop = (): void => {
		if (stopped) return;
		stopped = true;
		stopListening();
		stopWatching?.();
		stopSync?.();
		stopShared?.();
		stopCounters();
		stopReplay?.();
		if (stopApp === stop) stopApp = undefined;
	};
	stopApp = stop;
	return stop;
}
