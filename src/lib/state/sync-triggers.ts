/**
 * When the page syncs by itself: once the first screen is shown (never before: the sync would
 * compete with it), when the browser comes back online, when the tab becomes visible, and every
 * few minutes while it stays visible (the worker's part: sync/triggers.ts). After a sync the open
 * screen takes what changed (tree counters, rows of the open list, new articles at its top)
 * without moving the reader's place. Started and stopped by the app's lifecycle (lifecycle.ts);
 * here in state because it follows the session and refreshes the screens' state.
 */
import { isApiError, readerText, type Counters } from '$lib/api';
import { afterFirstScreen, afterListsShown } from '$lib/boot/early-reads';
import { cachedRows } from '$lib/cache/cache-reads';
import { cacheImagesViaWorker } from '$lib/offline/images';
import { cacheEnclosuresViaWorker } from '$lib/offline/media';
import { inPage, onVisible, onWindow } from '$lib/offline/page-events';
import { pendingCount } from '$lib/outbox/outbox';
import { onSyncMessage } from '$lib/sync/channel';
import { SYNC_TAG, type SyncChanges } from '$lib/sync/contract';
import type { SyncOutcome } from '$lib/sync/engine';
import { loadSyncState, saveArticleCount } from '$lib/sync/state';
import { syncStatus } from '$lib/sync/sync-status.svelte';
import { registerPeriodicSync, registerSync, syncInterval } from '$lib/sync/triggers';
import { headlines } from './headlines.svelte';
import { requestReplay, runReplay } from './replay-triggers';
import { session } from './session.svelte';
import { settings } from './settings.svelte';
import { treeState } from './tree.svelte';
import { m } from '$lib/i18n/m';

let running: Promise<SyncOutcome | undefined> | undefined;
let again = false;
/** Whether the sync running now is full. */
let runningFull = false;
/** A full sync was asked for while a partial one ran: the one that follows it is full. */
let againFull = false;

/**
 * Syncs from the page now (joins one already running here); quiet when offline or signed out.
 * `again`: what the reader just changed (a new pack) must be in it: a sync already running began
 * before, so one more follows it. A full sync asked for ("Sync now") while another runs (the
 * app's own, started a moment before the tap) follows it too: the tap is never lost, and its
 * answer is the full sync's.
 */
export function syncFromPage(
	options: { full?: boolean; again?: boolean } = {}
): Promise<SyncOutcome | undefined> {
	if (running) {
		// A full sync running already answers a second tap; a partial one is followed by a full one.
		const fullAfter = options.full === true && !runningFull;
		again ||= options.again === true || fullAfter;
		againFull ||= fullAfter;
		return running;
	}
	running = (async () => {
		let outcome: SyncOutcome | undefined;
		let full = options.full === true;
		do {
			again = false;
			runningFull = full;
			outcome = await doSync({ full });
			full = againFull;
			againFull = false;
		} while (again);
		return outcome;
	})().finally(() => {
		running = undefined;
		runningFull = false;
	});
	return running;
}

async function doSync({ full = false }: { full?: boolean }): Promise<SyncOutcome | undefined> {
	await session.restore();
	if (!session.signedIn || session.ended || !navigator.onLine) return undefined;
	const account = session.account;
	if (account === undefined) return undefined;
	// The reader's own changes first (this joins a replay already running): the sync then reads a
	// server that has them, and never competes with their sending for a connection coming back.
	if ((await pendingCount()) > 0 && (await runReplay())?.stopped === 'offline') return undefined;
	const mark = treeState.changeMark();
	syncStatus.begin();
	try {
		const articleCount = settings.values.offlineArticles;
		await saveArticleCount(articleCount);
		// A list the reader is opening comes first: its rows, then the sync's work.
		await afterListsShown();
		// The engine is loaded at the first sync, not with the first screen (with the page's
		// full-text worker's client, page-sync.ts).
		const { runPageSync } = await import('./page-sync');
		let shown = false;
		// The screen takes the sync's text when it is in, before the images it keeps; the sync
		// still shows as running ("updating") until those are kept too.
		const show = async (outcome: SyncOutcome): Promise<void> => {
			if (shown || outcome.status === 'busy') return;
			shown = true;
			syncStatus.noteSynced(outcome.at);
			// The settings kept by the plugin that this sync read (other tabs hear the channel).
			void import('./shared-settings.svelte')
				.then(({ sharedSettings }) => sharedSettings.refresh(account))
				.catch(() => undefined);
			if (outcome.status === 'synced') {
				await applyToScreen(outcome.changes, outcome.counters, mark);
			}
		};
		const outcome = await runPageSync({
			client: await session.api(),
			account,
			articleCount,
			full,
			onProgress: (progress) => syncStatus.report(progress),
			onSynced: show,
			cacheImages: (urls, signal) => cacheImagesViaWorker(urls, account, signal),
			cacheEnclosures: (urls, signal) => cacheEnclosuresViaWorker(urls, account, signal)
		});
		if (outcome.status === 'busy') {
			syncStatus.end();
			return outcome;
		}
		await show(outcome);
		// The reader's rules may have queued changes (src/lib/rules): sent now, like the reader's own.
		if ((await pendingCount()) > 0) requestReplay();
		syncStatus.succeeded(outcome.at);
		return outcome;
	} catch (error) {
		syncStatus.failed(readerText(error, m.failure_sync()));
		// No network: the worker tries again once there is one, even with every tab closed.
		if (isApiError(error) && error.kind === 'transport') void registerSync(SYNC_TAG);
		return undefined;
	}
}

/** The open screen takes what a sync changed: counters, rows on screen, new rows at the top. */
async function applyToScreen(
	changes: SyncChanges,
	counters: Counters | undefined,
	mark: number
): Promise<void> {
	// A feed subscribed elsewhere: the tree needs it (and the cache then has it offline).
	if (counters?.feeds.some((f) => treeState.title('feed', f.id) === undefined))
		await treeState.load();
	// Counters read while the reader's own changes wait would undo their optimistic counts.
	if (counters && (await pendingCount()) === 0) await treeState.applyCounters(counters, mark);
	else if (!counters && changes.articleIds.length > 0 && (await pendingCount()) === 0)
		await treeState.refreshCounters();
	const shown = new Set(headlines.items.map((h) => h.id));
	const onScreen = changes.articleIds.filter((id) => shown.has(id));
	const readAt = Date.now();
	await headlines.patchRead(await cachedRows(onScreen), readAt);
	if (changes.newArticles && headlines.query) await headlines.refresh();
}

let stop: (() => void) | undefined;

/** Starts the page's sync triggers once; returns the function that removes them. */
export function startSyncTriggers(): () => void {
	if (stop) return stop;
	if (!inPage()) return () => undefined;
	let stopped = false;
	const sync = (): void => void syncFromPage();
	const stopOnline = onWindow('online', sync);
	const stopVisible = onVisible(sync);
	const timer = setInterval(() => {
		if (document.visibilityState === 'visible') sync();
	}, syncInterval());
	const stopMessages = onSyncMessage((message) => {
		if (message.type !== 'sync-done') return;
		syncStatus.noteSynced(message.at);
		if (message.changes.articleIds.length > 0)
			void applyToScreen(message.changes, undefined, treeState.changeMark());
	});
	void afterFirstScreen().then(async () => {
		if (stopped) return;
		await session.restore();
		if (session.account) syncStatus.noteSynced((await loadSyncState(session.account)).lastSyncAt);
		sync();
		void registerPeriodicSync();
	});
	stop = () => {
		stopped = true;
		clearInterval(timer);
		stopOnline();
		stopVisible();
		stopMessages();
		stop = undefined;
	};
	return stop;
}
