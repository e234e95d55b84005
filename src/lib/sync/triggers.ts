/**
 * When the page syncs by itself: once the first screen is shown (never before: the sync would
 * compete with it), when the browser comes back online, when the tab becomes visible, and every
 * few minutes while it stays visible. Where the browser offers Periodic Background Sync and the
 * installed app has its permission, the worker also syncs while no tab is open; a sync that
 * failed for want of a network asks for a Background Sync, which the worker runs once the
 * connection is back. Firefox and WebKit have neither: there the page's own triggers are all, on
 * purpose. After a sync the open screen takes what changed (tree counters, rows of the open
 * list, new articles at its top) without moving the reader's place.
 */
import { isApiError, readerText, type Counters } from '$lib/api';
import { afterFirstScreen } from '$lib/boot/early-reads';
import { cachedRows } from '$lib/cache';
import { cacheImagesViaWorker } from '$lib/offline/images';
import { cacheEnclosuresViaWorker } from '$lib/offline/media';
import { inPage, onVisible, onWindow } from '$lib/offline/page-events';
import { runReplay } from '$lib/offline/triggers';
import { pendingCount } from '$lib/outbox/outbox';
import { headlines } from '$lib/state/headlines.svelte';
import { session } from '$lib/state/session.svelte';
import { settings } from '$lib/state/settings.svelte';
import { treeState } from '$lib/state/tree.svelte';
import {
	PERIODIC_MIN_INTERVAL_MS,
	PERIODIC_SYNC_TAG,
	SYNC_INTERVAL_KEY,
	SYNC_TAG,
	type SyncChanges
} from './contract';
import type { SyncOutcome } from './engine';
import { onSyncMessage } from './channel';
import { loadSyncState, saveArticleCount } from './state';
import { syncStatus } from './status.svelte';

/** Between syncs while the tab stays visible. */
export const SYNC_EVERY_MS = 5 * 60_000;

/** The interval, shortened for tests through localStorage (no build needed). */
export function syncInterval(): number {
	try {
		const raw = Number(globalThis.localStorage?.getItem(SYNC_INTERVAL_KEY));
		return Number.isFinite(raw) && raw >= 200 ? raw : SYNC_EVERY_MS;
	} catch {
		return SYNC_EVERY_MS;
	}
}

let running: Promise<SyncOutcome | undefined> | undefined;
let again = false;

/**
 * Syncs from the page now (joins one already running here); quiet when offline or signed out.
 * `again`: what the reader just changed (a new pack) must be in it: a sync already running began
 * before, so one more follows it.
 */
export function syncFromPage(
	options: { full?: boolean; again?: boolean } = {}
): Promise<SyncOutcome | undefined> {
	if (running) {
		again ||= options.again === true;
		return running;
	}
	running = (async () => {
		let outcome: SyncOutcome | undefined;
		do {
			again = false;
			outcome = await doSync(options);
		} while (again);
		return outcome;
	})().finally(() => {
		running = undefined;
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
		// The engine is loaded at the first sync, not with the first screen.
		const { runSync } = await import('./run');
		let shown = false;
		// The screen takes the sync's text when it is in, before the images it keeps.
		const show = async (outcome: SyncOutcome): Promise<void> => {
			if (shown || outcome.status === 'busy') return;
			shown = true;
			syncStatus.succeeded(outcome.at);
			if (outcome.status === 'synced') {
				await applyToScreen(outcome.changes, outcome.counters, mark);
			}
		};
		const outcome = await runSync({
			client: session.client,
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
		return outcome;
	} catch (error) {
		syncStatus.failed(readerText(error, 'The offline copy could not be brought up to date.'));
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
	headlines.patchRead(await cachedRows(onScreen), readAt);
	if (changes.newArticles && headlines.query) await headlines.refresh();
}

interface SyncRegistration {
	sync?: { register(tag: string): Promise<void> };
	periodicSync?: {
		register(tag: string, options: { minInterval: number }): Promise<void>;
	};
}

async function registration(): Promise<SyncRegistration | undefined> {
	if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return undefined;
	return (await navigator.serviceWorker.getRegistration()) as unknown as
		SyncRegistration | undefined;
}

async function registerSync(tag: string): Promise<void> {
	try {
		await (await registration())?.sync?.register(tag);
	} catch {
		// Not offered or not allowed: the page's own triggers remain.
	}
}

/**
 * Periodic Background Sync: Chromium offers it to installed apps only, behind a permission it
 * grants by its own rules (site engagement). Anything short of "granted" leaves the page's triggers.
 */
export async function registerPeriodicSync(): Promise<boolean> {
	try {
		const periodic = (await registration())?.periodicSync;
		if (!periodic) return false;
		const state = await navigator.permissions.query({
			name: 'periodic-background-sync' as PermissionName
		});
		if (state.state !== 'granted') return false;
		await periodic.register(PERIODIC_SYNC_TAG, { minInterval: PERIODIC_MIN_INTERVAL_MS });
		return true;
	} catch {
		return false;
	}
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
