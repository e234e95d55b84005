/**
 * The sync engine: keeps the offline copy up to date without being asked (docs/sync.md). One
 * function for the page and the service worker; a Web Lock keeps one sync at a time across tabs
 * and the worker. The cheapest path first: one getCounters, and nothing more when no counter moved
 * since the last sync. Otherwise, in order:
 * 1. new unread articles with their bodies, by `since_id` from the newest id kept;
 * 2. the kept sets whose counters moved beyond what the new articles explain (unread, starred,
 *    published), or whose last read the list shifted under, read again as rows without bodies in
 *    bounded pages; cached copies outside a set read whole, with no shift left unbridged, lose the
 *    flag (outbox changes still waiting are applied again over all of it);
 * 3. bodies for kept articles that have none (getArticle, in batches);
 * 4. the offline packs whose counters moved, then the enclosures of those that keep them;
 * 5. the bookkeeping saved (the sync's text is done: `onSynced`), then images (by the storage
 *    policy, a few at a time), then the storage budget.
 * Everything is stored through the cache module (src/lib/cache), which re-applies the outbox.
 */
import type { Counters, TtrssClient } from '$lib/api';
import { accountOfClient } from '$lib/db/account';
import { holdIndexing } from '$lib/db/index-queue';
import { keepPackEnclosures } from '$lib/offline/media';
import { SYNC_LOCK, type SyncChanges, type SyncPhase } from './contract';
import { snapshotOf, type CounterSnapshot } from './counters';
import { keepImages } from './image-step';
import { readKeptSets, readMissingBodies, readNewArticles, readPacks } from './read-steps';
import { loadPacks, loadSyncState, saveSyncState, type OfflinePack, type SyncState } from './state';
import { nextSyncState, nothingMoved, planSync } from './sync-plan';
import { joinHarvests, listReader, type SyncRun } from './sync-run';

export interface SyncProgress {
	phase: SyncPhase;
	/** Articles stored so far in this sync. */
	stored: number;
}

export interface SyncOptions {
	client: TtrssClient;
	/** The account whose bookkeeping to use; by default the client's bound account. */
	account?: string;
	/** Unread (and starred, published) articles kept: the reader's article count setting. */
	articleCount: number;
	signal?: AbortSignal;
	onProgress?: (progress: SyncProgress) => void;
	/** Stores image URLs for offline reading (page: via the worker; worker: itself). */
	cacheImages?: (urls: string[], signal?: AbortSignal) => Promise<unknown>;
	/** Keeps the enclosures of packs that keep them (page: via the worker; worker: itself). */
	cacheEnclosures?: (urls: string[], signal?: AbortSignal) => Promise<unknown>;
	/**
	 * Called once a sync's text is stored and its bookkeeping saved, before the images it keeps
	 * (which may take long): what a screen shows need not wait for them.
	 */
	onSynced?: (outcome: SyncOutcome) => void | Promise<void>;
	/** Compare every kept set even if the counters did not move ("Sync now"). */
	full?: boolean;
	/**
	 * The full-text step (issue 59): keeps the full text of the feeds set to it, and returns the
	 * proxied addresses of their images for this sync to keep with the others. The page's sync
	 * passes it (state/page-sync.ts: sync/full-text-step.ts with the page's worker); the service worker's
	 * sync has no worker and leaves it to the page's next sync, so its bundle carries none of it.
	 */
	fullText?: (step: {
		account: string;
		signal: AbortSignal | undefined;
		now: () => number;
	}) => Promise<{ images: string[] }>;
	now?: () => number;
}

export type SyncOutcome =
	/** Another tab or the worker is syncing: it does the work. */
	| { status: 'busy' }
	/** One getCounters; nothing moved. */
	| { status: 'unchanged'; at: number; counters: Counters }
	| { status: 'synced'; at: number; counters: Counters; changes: SyncChanges };

/** Runs one sync unless another one (any tab, the worker) is running. */
export async function syncNow(options: SyncOptions): Promise<SyncOutcome> {
	const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
	if (!locks?.request) return syncOnce(options);
	return await locks.request(SYNC_LOCK, { ifAvailable: true }, (lock) =>
		lock ? syncOnce(options) : ({ status: 'busy' } as const)
	);
}

/**
 * The search index takes a sync's articles once its text is stored, in one batch, not page by page
 * while the server answers the next page (db/index-queue.ts): `textStored` hands them over.
 */
async function syncOnce(options: SyncOptions): Promise<SyncOutcome> {
	const release = holdIndexing();
	try {
		return await syncSteps(options, release);
	} finally {
		release();
	}
}

/** The steps of one sync, in order. */
async function syncSteps(options: SyncOptions, textStored: () => void): Promise<SyncOutcome> {
	const run = syncRun(options);
	const { counters, countersAt, snapshot } = await readCounters(run);
	const state = await loadSyncState(run.account);
	const packs = await loadPacks(run.account);
	const plan = planSync({
		state,
		counters,
		packs,
		articleCount: options.articleCount,
		fullAsked: options.full === true,
		now: run.now
	});
	if (await nothingMoved(run.account, state, snapshot, plan)) {
		return await syncUnchanged(run, options, { state, counters, countersAt });
	}

	const readList = await listReader(run);
	const { full } = plan;
	const { articleCount } = options;
	const news = await readNewArticles(run, readList, state, snapshot, articleCount);
	const sets = await readKeptSets(run, readList, {
		state,
		snapshot,
		full,
		news,
		articleCount,
		storedBefore: news.harvest.stored
	});
	const bodies = await readMissingBodies(
		run,
		sets.keptIds,
		news.harvest.stored + sets.harvest.stored
	);
	const packed = await readPacks(run, readList, {
		packs,
		markOf: plan.markOf,
		state,
		full,
		storedBefore: news.harvest.stored + sets.harvest.stored + bodies.stored
	});
	const harvest = joinHarvests(news.harvest, sets.harvest, bodies, packed.harvest);
	await keepEnclosures(run, packs, options.cacheEnclosures, harvest.stored);
	const config = full ? await run.client.getConfig(run.op).catch(() => state.config) : state.config;

	const at = run.now();
	const next = nextSyncState({
		state,
		snapshot,
		countersAt,
		at,
		full,
		newestId: news.newestId,
		packCounters: packed.packCounters,
		config,
		articleCount,
		images: harvest.images,
		imageIds: harvest.imageIds,
		readAgain: sets.readAgain
	});
	await saveSyncState(run.account, next);
	const outcome: SyncOutcome = {
		status: 'synced',
		at,
		counters,
		changes: { articleIds: [...harvest.changed], newArticles: news.fresh.length > 0 }
	};
	// The text is in: the screens take it now, not after the images; the index takes its words.
	textStored();
	await options.onSynced?.(outcome);

	// 5a. Full text of the feeds set to it (issue 59), after the text the screens wait for.
	const kept = await keepFullText(run, options);
	await keepImages(run, {
		images: [...harvest.images, ...kept.images],
		saved: next,
		stored: harvest.stored,
		cacheImages: options.cacheImages
	});
	return outcome;
}

function syncRun(options: SyncOptions): SyncRun {
	const { client, signal } = options;
	return {
		client,
		account: options.account ?? accountOfClient(client) ?? '',
		signal,
		op: signal ? { signal } : {},
		now: options.now ?? Date.now,
		report: (phase, stored) => options.onProgress?.({ phase, stored })
	};
}

/** The cheapest read first: one getCounters, and when it was asked for. */
async function readCounters(
	run: SyncRun
): Promise<{ counters: Counters; countersAt: number; snapshot: CounterSnapshot }> {
	const countersAt = run.now();
	const counters = await run.client.getCounters({}, run.op);
	return { counters, countersAt, snapshot: snapshotOf(counters) };
}

/**
 * Nothing moved: the bookkeeping notes the counters' time, and what follows a sync still runs
 * (full text, and the images a cut-short sync left).
 */
async function syncUnchanged(
	run: SyncRun,
	options: SyncOptions,
	{ state, counters, countersAt }: { state: SyncState; counters: Counters; countersAt: number }
): Promise<SyncOutcome> {
	const at = run.now();
	const next = { ...state, lastSyncAt: at, countersAt };
	await saveSyncState(run.account, next);
	const outcome: SyncOutcome = { status: 'unchanged', at, counters };
	// Still under the sync's lock: what follows a sync (the rules, the alerts: sync/run-sync.ts) may
	// act on articles a list brought in since, and a sign-out waits for this lock before it
	// wipes (db/device.ts withReplayAndSyncStopped), so nothing is queued or shown after it.
	await options.onSynced?.(outcome);
	// 5a. Full text of the feeds set to it (issue 59), after the text the screens wait for.
	const kept = await keepFullText(run, options);
	if (state.imagesPending || kept.images.length > 0) {
		await keepImages(run, {
			images: kept.images,
			saved: next,
			stored: 0,
			cacheImages: options.cacheImages
		});
	}
	return outcome;
}

/** Enclosures follow their packs' members (kept, or dropped when no pack keeps them now). */
async function keepEnclosures(
	run: SyncRun,
	packs: readonly OfflinePack[],
	cacheEnclosures: SyncOptions['cacheEnclosures'],
	stored: number
): Promise<void> {
	const enclosurePacks = new Set(packs.filter((pack) => pack.enclosures).map((pack) => pack.id));
	if (enclosurePacks.size > 0) run.report('media', stored);
	await keepPackEnclosures(enclosurePacks, cacheEnclosures, run.signal);
}

async function keepFullText(run: SyncRun, options: SyncOptions): Promise<{ images: string[] }> {
	return options.fullText
		? options.fullText({ account: run.account, signal: run.signal, now: run.now })
		: { images: [] };
}
