/**
 * When the page replays the outbox: at start, when the browser comes back online, when the tab
 * becomes visible again, and right after a change is queued. Where Background Sync exists the
 * worker is also asked to replay (it does so even after the tab is closed).
 */
import { afterFirstScreen } from '$lib/boot/early-reads';
import { replayOutbox, type ReplayResult } from '$lib/outbox/replay';
import { session } from '$lib/state/session.svelte';
import { inPage, onVisible, onWindow } from './page-events';
import { offlineStatus } from './status.svelte';

const SYNC_TAG = 'outbox';

interface SyncManagerLike {
	register(tag: string): Promise<void>;
}

/** Asks the worker for a Background Sync; quietly does nothing where that is missing. */
async function registerBackgroundSync(): Promise<void> {
	if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
	try {
		const registration = await navigator.serviceWorker.getRegistration();
		const sync = (registration as unknown as { sync?: SyncManagerLike } | undefined)?.sync;
		await sync?.register(SYNC_TAG);
	} catch {
		// Not allowed (e.g. no permission) or not supported: the page's own triggers remain.
	}
}

/** Replays now from the page (non-blocking); also registers a Background Sync. */
export function requestReplay(): void {
	void runReplay();
	void registerBackgroundSync();
}

/** Replays with the page's session; resolves with the result (for the "Retry now" buttons). */
export async function runReplay(): Promise<ReplayResult | undefined> {
	await session.restore();
	if (!session.signedIn) return undefined;
	try {
		return await replayOutbox({ client: session.client });
	} catch {
		// IndexedDB trouble: the status shows the counts as they are; the next trigger tries again.
		return undefined;
	} finally {
		await offlineStatus.refresh();
	}
}

let stop: (() => void) | undefined;

/**
 * Starts the page's triggers once; returns a function that removes them. The start's own replay
 * and status reads (outbox, cached tree, storage estimate) wait for the first list's rows (at most
 * FIRST_SCREEN_WAIT_MS): they would compete with them for the main thread and the database.
 */
export function startReplayTriggers(): () => void {
	if (stop) return stop;
	if (!inPage()) return () => undefined;
	let stopped = false;
	let stopStatus: () => void = () => undefined;
	const stopOnline = onWindow('online', requestReplay);
	const stopVisible = onVisible(requestReplay);
	void afterFirstScreen().then(() => {
		if (stopped) return;
		stopStatus = offlineStatus.start();
		requestReplay();
	});
	stop = () => {
		stopped = true;
		stopOnline();
		stopVisible();
		stopStatus();
		stop = undefined;
	};
	return stop;
}
