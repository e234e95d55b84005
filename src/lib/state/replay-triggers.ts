/**
 * When the page replays the outbox: at start, when the browser comes back online, when the tab
 * becomes visible again, and right after a change is queued. Where Background Sync exists the
 * worker is also asked to replay (it does so even after the tab is closed). Where it does not
 * (Firefox, Safari), nothing would wake the replay after a transport failure while the page stays
 * open and online: so while changes wait, the page tries again by itself with a growing delay
 * (seconds, then minutes, capped), and when items were put off after a server failure, once the
 * first of them is due.
 */
import { afterFirstScreen } from '$lib/boot/early-reads';
import { OUTBOX_SYNC_TAG } from '$lib/outbox/outbox-contract';
import { pendingItems } from '$lib/outbox/outbox';
import type { ReplayResult } from '$lib/outbox/replay';
import { inPage, onVisible, onWindow } from '$lib/offline/page-events';
import { offlineStatus } from '$lib/offline/offline-status.svelte';
import { settleTimer } from '$lib/timing/settle';
import { session } from './session.svelte';

interface SyncManagerLike {
	register(tag: string): Promise<void>;
}

/** Asks the worker for a Background Sync; quietly does nothing where that is missing. */
async function registerBackgroundSync(): Promise<void> {
	if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
	try {
		const registration = await navigator.serviceWorker.getRegistration();
		const sync = (registration as unknown as { sync?: SyncManagerLike } | undefined)?.sync;
		await sync?.register(OUTBOX_SYNC_TAG);
	} catch {
		// Not allowed (e.g. no permission) or not supported: the page's own triggers remain.
	}
}

/** Replays now from the page (non-blocking); also registers a Background Sync. */
export function requestReplay(): void {
	void runReplay();
	void registerBackgroundSync();
}

/** The page's own retries after a transport failure: 5 s, 10 s, 20 s … at most 5 min apart. */
export const RETRY_FIRST_MS = 5_000;
export const RETRY_MAX_MS = 5 * 60_000;

/** The page's next try of the replay (`changed(ms)`: in `ms`, replacing one due). */
const retry = settleTimer(() => void runReplay(), { quietMs: RETRY_FIRST_MS });
let failuresInARow = 0;

export function retryDelay(failures: number): number {
	return Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.max(0, failures - 1));
}

/** Plans the next try from a replay's outcome; other stops wait for the reader (sign in, …). */
async function planRetry(result: ReplayResult | undefined, now: number): Promise<void> {
	if (result?.stopped === 'offline') {
		failuresInARow++;
		retry.changed(retryDelay(failuresInARow));
		return;
	}
	failuresInARow = 0;
	if (!result || result.stopped !== undefined || result.remaining === 0) {
		retry.cancel();
		return;
	}
	// Everything sendable went out; what remains was put off after a server failure, or is held
	// for an Undo (outbox/hold.ts) that may have been offered by a tab that is gone since.
	const due = (await pendingItems())
		.map((item) => Math.max(item.notBefore ?? 0, item.heldUntil ?? 0))
		.filter((t) => t > 0);
	if (due.length === 0) retry.cancel();
	else retry.changed(Math.min(RETRY_MAX_MS, Math.max(1_000, Math.min(...due) - now)));
}

/**
 * The replay's code: loaded at the first replay, not with the first screen (the worker has its own
 * copy), or while the sign-in form is filled in (a sign-in replays at once).
 */
export const loadReplayCode = () => import('$lib/outbox/replay');

/** Replays with the page's session; resolves with the result (for the "Retry now" buttons). */
export async function runReplay(): Promise<ReplayResult | undefined> {
	await session.restore();
	if (!session.signedIn) return undefined;
	let result: ReplayResult | undefined;
	try {
		const { replayOutbox } = await loadReplayCode();
		result = await replayOutbox({ client: await session.api() });
		return result;
	} catch {
		// IndexedDB trouble: the status shows the counts as they are; the next trigger tries again.
		return undefined;
	} finally {
		await planRetry(result, Date.now()).catch(() => undefined);
		// The replay changes the outbox, never the tree.
		await offlineStatus.refresh({ tree: false });
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
		retry.cancel();
		stopOnline();
		stopVisible();
		stopStatus();
		stop = undefined;
	};
	return stop;
}
