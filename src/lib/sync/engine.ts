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
import {
	SPECIAL_FEED,
	type Counters,
	type GetHeadlinesParams,
	type Headline,
	type TtrssClient
} from '$lib/api';
import {
	clearFlagOutside,
	idsWithoutContent,
	keptBodies,
	setPackMembers,
	storeArticleBodies,
	storeOfflineHeadlines,
	type KeptFlag,
	type SyncedFor
} from '$lib/cache/kept';
import { headlinePages } from '$lib/api/paging';
import { accountOfClient } from '$lib/db/account';
import { holdIndexing } from '$lib/db/index-queue';
import { batchSize, enforceBudget, imagesAllowed } from '$lib/offline/budget';
import { articleImageUrls, imageUrls } from '$lib/offline/images';
import { signedImagesOf } from '$lib/content/url';
import { keepPackEnclosures } from '$lib/offline/media';
import { confirmedSince } from '$lib/outbox/sent-log';
import { SYNC_LOCK, type SyncChanges, type SyncPhase } from './contract';
import { counterMoves, packCounterOf, sameSnapshot, snapshotOf } from './counters';
import { loadPacks, loadSyncState, saveSyncState, type OfflinePack, type SyncState } from './state';

/** Every kept set is compared in full at least this often, whatever the counters say. */
export const FULL_SYNC_EVERY_MS = 6 * 60 * 60_000;
/** Bodies asked for in one getArticle call. */
export const BODY_BATCH = 50;

/**
 * Pages of a list asked for at once (headlinePages' `inFlight`): tt-rss answers each in one PHP
 * worker, and a server has several. On the test bed a fresh database's 200-article content page
 * takes ~350 ms whether asked alone or beside another: six pages took 2.0–2.2 s one after the
 * other and 1.0–1.1 s two at a time (three: 0.9 s). Two keep a small server's other workers free.
 */
export const PAGES_IN_FLIGHT = 2;

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
	 * passes it (state/page-sync.ts: sync/full-text.ts with the page's worker); the service worker's
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

const CONTENT: Pick<GetHeadlinesParams, 'showContent' | 'includeAttachments' | 'hasSandbox'> = {
	showContent: true,
	includeAttachments: true,
	// The reader sandboxes embedded iframes (see src/lib/content).
	hasSandbox: true
};

/** The account an answer was fetched for and when it was asked for: what the cache's writes take. */
type Asked = Required<SyncedFor>;

type ReadList = (
	params: Omit<GetHeadlinesParams, 'skip' | 'limit' | 'includeHeader' | 'checkFirstId'>,
	max: number,
	onPage: (rows: Headline[], asked: Asked) => Promise<void>,
	/** Rows the list is known to hold (the counters'): its pages are asked for two at a time. */
	expected?: number
) => Promise<{
	ids: Set<number>;
	/** The server had no more, and the list did not shift under the pages: absence proves a loss. */
	complete: boolean;
	/** The list shifted under the pages beyond what a bridge could join (api/paging.ts). */
	shifted: boolean;
	asked: Asked;
}>;

/**
 * The articles whose images the next sync reads again if this one's are cut short: this sync's and
 * those still pending from before; none known (every kept article's) when an older record said
 * only that some were pending.
 */
function pendingImageIds(
	state: SyncState,
	imageIds: ReadonlySet<number>
): Pick<SyncState, 'imagesPendingIds'> {
	if (state.imagesPending === true && state.imagesPendingIds === undefined) return {};
	if (state.imagesPending !== true && imageIds.size === 0) return {};
	return { imagesPendingIds: [...new Set([...(state.imagesPendingIds ?? []), ...imageIds])] };
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

async function syncSteps(options: SyncOptions, textStored: () => void): Promise<SyncOutcome> {
	const { client, signal } = options;
	const now = options.now ?? Date.now;
	const account = options.account ?? accountOfClient(client) ?? '';
	const op = signal ? { signal } : {};
	// What this sync writes carries the time it was asked for: a change the server confirms after
	// that (the reader opened an article) is put back on over it (outbox/sent-log.ts). Each page
	// has its own time — a sync of many pages may run longer than the sent log keeps its entries,
	// and an answer dated by the sync's start would then not know which of the reader's changes it
	// misses (an article not cached would be stored with a state the reader changed since).
	const askedNow = (): Asked => ({ account, readAt: now() });
	const keepFullText = async (): Promise<{ images: string[] }> =>
		options.fullText ? options.fullText({ account, signal, now }) : { images: [] };
	const countersAt = now();
	const counters = await client.getCounters({}, op);
	const snapshot = snapshotOf(counters);
	const state = await loadSyncState(account);
	const full =
		options.full === true ||
		state.counters === undefined ||
		options.articleCount > state.articleCount ||
		state.lastFullAt === undefined ||
		now() - state.lastFullAt >= FULL_SYNC_EVERY_MS;
	const packs = await loadPacks(account);
	// A pack's mark names its place's counters, its limit and whether it keeps enclosures: a new
	// or changed pack is due.
	const packMark = (pack: OfflinePack): string =>
		`${packCounterOf(counters, pack)}/${pack.limit}${pack.enclosures ? '/enclosures' : ''}`;
	const packsDue = packs.some((pack) => state.packCounters[pack.id] !== packMark(pack));
	/**
	 * 5. Images by the reader's policy, after the text (never delaying it), then the budget. A page
	 * that goes away cuts this short: `imagesPending` stays, and the next sync, changed or not,
	 * asks for every kept article's images again (those already kept are not fetched again).
	 */
	const keepImages = async (images: string[], saved: SyncState, stored = 0): Promise<void> => {
		if (saved.imagesPending) {
			for (const body of await keptBodies(saved.imagesPendingIds)) {
				images.push(...articleImageUrls(body, signedImagesOf(body, client.imageProxy)));
			}
		}
		if (images.length > 0 && options.cacheImages && (await imagesAllowed())) {
			options.onProgress?.({ phase: 'images', stored });
			await options.cacheImages([...new Set(images)], signal);
		}
		if (saved.imagesPending) {
			const done: SyncState = { ...saved, imagesPending: false };
			delete done.imagesPendingIds;
			await saveSyncState(account, done);
		}
		await enforceBudget();
	};
	// Equal counters say nothing changed only when none of the reader's own changes reached the
	// server since they were last read: one read and one arrival leave the same counts.
	// (The sent log is read only when the rest already says "unchanged".)
	const unchanged =
		!full &&
		!packsDue &&
		state.counters !== undefined &&
		state.countersAt !== undefined &&
		sameSnapshot(state.counters, snapshot) &&
		(state.readAgain ?? []).length === 0 &&
		!(await confirmedSince(account, state.countersAt));
	if (unchanged) {
		const at = now();
		const next = { ...state, lastSyncAt: at, countersAt };
		await saveSyncState(account, next);
		const outcome: SyncOutcome = { status: 'unchanged', at, counters };
		// Still under the sync's lock: what follows a sync (the rules, the alerts: sync/run.ts) may
		// act on articles a list brought in since, and a sign-out waits for this lock before it
		// wipes (db/device.ts withReplayAndSyncStopped), so nothing is queued or shown after it.
		await options.onSynced?.(outcome);
		// 5a. Full text of the feeds set to it (issue 59), after the text the screens wait for.
		const kept = await keepFullText();
		if (state.imagesPending || kept.images.length > 0) await keepImages(kept.images, next);
		return outcome;
	}

	let stored = 0;
	const changed = new Set<number>();
	const images: string[] = [];
	/** The articles `images` came from: what the next sync reads again if these are cut short. */
	const imageIds = new Set<number>();
	const report = (phase: SyncPhase): void => options.onProgress?.({ phase, stored });
	const keep = async (rows: Headline[], asked: Asked, pack?: string): Promise<void> => {
		if (rows.length === 0) return;
		await storeOfflineHeadlines(rows, pack === undefined ? asked : { pack, ...asked });
		for (const h of rows) {
			changed.add(h.id);
			// Where the Reader plugin signs the account's images, only its proxy addresses.
			images.push(...articleImageUrls(h, signedImagesOf(h, client.imageProxy)));
			if (h.content || h.flavorImage) imageIds.add(h.id);
		}
		stored += rows.length;
	};
	const caps = await client.detectCapabilities(op);
	const pageSize = Math.max(1, Math.min(batchSize(caps.headlineLimit), caps.headlineLimit));
	/**
	 * Reads a list in pages, at most `max` rows; `complete` when the server had no more. The next
	 * pages are asked for while this one is written (headlinePages' prefetch), two at a time within
	 * `expected` (`PAGES_IN_FLIGHT`), so the sync takes about the server's time or less. Each page
	 * comes with the time its own request started (never later than the server's read, even when
	 * it was asked for before the page before it was written); `asked` is the first page's, the
	 * time of the set as a whole. Each page after the first begins on the row the one before it
	 * ended with, so a list that shifts between pages shows, and is bridged or reported
	 * (`shifted`: then the set is not `complete`, whatever it holds).
	 */
	const readList: ReadList = async (params, max, onPage, expected) => {
		const ids = new Set<number>();
		// Before any request: the set's time when no page came (an empty set).
		const before = askedNow();
		let first: Asked | undefined;
		let shifted = false;
		if (max <= 0) return { ids, complete: false, shifted, asked: before };
		for await (const { rows, askedAt } of headlinePages(client, params, {
			...op,
			pageSize,
			max,
			now,
			prefetch: true,
			inFlight: PAGES_IN_FLIGHT,
			expected,
			onShifted: () => {
				shifted = true;
			}
		})) {
			const asked: Asked = { account, readAt: askedAt };
			first ??= asked;
			rows.forEach((h) => ids.add(h.id));
			await onPage(rows, asked);
		}
		return { ids, complete: !shifted && ids.size < max, shifted, asked: first ?? before };
	};

	// 1. New unread articles, with bodies.
	report('new');
	const fresh: Headline[] = [];
	let newestId = state.newestId;
	const firstRead = await readList(
		{
			feedId: SPECIAL_FEED.all,
			viewMode: 'unread',
			sinceId: state.newestId || undefined,
			...CONTENT
		},
		options.articleCount,
		async (rows, asked) => {
			fresh.push(...rows);
			for (const h of rows) newestId = Math.max(newestId, h.id);
			await keep(rows, asked);
			report('new');
		},
		// The whole unread set (no newest id yet): the counters say how many rows it holds.
		state.newestId ? undefined : snapshot.globalUnread
	);

	// 2. Kept sets that changed elsewhere: rows without bodies (a headline is ~1 KB, a body many).
	report('state');
	const moves = full
		? { unread: true, starred: true, published: true }
		: counterMoves(state.counters, snapshot, fresh);
	// A set the list shifted under last time is read again, though no counter moved since.
	const again = new Set(state.readAgain);
	const sets: [KeptFlag, number, boolean][] = [
		['unread', SPECIAL_FEED.all, moves.unread || again.has('unread')],
		['marked', SPECIAL_FEED.starred, moves.starred || again.has('marked')],
		['published', SPECIAL_FEED.published, moves.published || again.has('published')]
	];
	const keptIds = new Set<number>();
	/** The sets this sync's read of them shifted under: the next sync's to read again. */
	const readAgain: KeptFlag[] = [];
	for (const [flag, feedId, moved] of sets) {
		if (!moved) continue;
		// Without a newest id, step 1 read the unread set itself (with bodies).
		if (flag === 'unread' && !state.newestId) {
			if (firstRead.shifted) readAgain.push(flag);
			if (firstRead.complete)
				for (const id of await clearFlagOutside('unread', firstRead.ids, firstRead.asked)) {
					changed.add(id);
				}
			continue;
		}
		const { ids, complete, shifted, asked } = await readList(
			{
				feedId,
				viewMode: flag === 'unread' ? 'unread' : 'all_articles',
				includeAttachments: true
			},
			options.articleCount,
			async (rows, page) => {
				await keep(rows, page);
				report('state');
			},
			flag === 'unread' ? snapshot.globalUnread : undefined
		);
		ids.forEach((id) => keptIds.add(id));
		if (shifted) readAgain.push(flag);
		// Only a set read whole, with no shift unbridged, says which cached copies lost the flag.
		if (complete) for (const id of await clearFlagOutside(flag, ids, asked)) changed.add(id);
	}

	// 3. Bodies of kept articles that have none.
	report('content');
	const missing = await idsWithoutContent([...keptIds]);
	for (let i = 0; i < missing.length; i += BODY_BATCH) {
		signal?.throwIfAborted();
		const asked = askedNow();
		const articles = await client.getArticle(
			{ articleIds: missing.slice(i, i + BODY_BATCH), sanitize: true },
			op
		);
		await storeArticleBodies(articles, asked);
		for (const a of articles) {
			changed.add(a.id);
			images.push(...imageUrls(a.content, a.link, signedImagesOf(a, client.imageProxy)));
			imageIds.add(a.id);
		}
		stored += articles.length;
		report('content');
	}

	// 4. Offline packs whose place moved (or never synced).
	report('packs');
	const packCounters: Record<string, string> = {};
	for (const pack of packs) {
		const sig = packMark(pack);
		packCounters[pack.id] = sig;
		if (!full && state.packCounters[pack.id] === sig) continue;
		// A pack read the list shifted under is read again by the next sync.
		if (await syncPack(pack, readList, keep, account)) delete packCounters[pack.id];
		report('packs');
	}
	// Enclosures follow their packs' members (kept, or dropped when no pack keeps them now).
	const enclosurePacks = new Set(packs.filter((pack) => pack.enclosures).map((pack) => pack.id));
	if (enclosurePacks.size > 0) report('media');
	await keepPackEnclosures(enclosurePacks, options.cacheEnclosures, signal);

	const config = full ? await client.getConfig(op).catch(() => state.config) : state.config;
	const at = now();
	const next: SyncState = {
		counters: snapshot,
		countersAt,
		newestId,
		lastSyncAt: at,
		lastFullAt: full ? at : state.lastFullAt,
		packCounters,
		config: config,
		articleCount: Math.max(options.articleCount, full ? options.articleCount : state.articleCount),
		imagesPending: state.imagesPending === true || images.length > 0,
		...pendingImageIds(state, imageIds),
		...(readAgain.length > 0 ? { readAgain } : {})
	};
	await saveSyncState(account, next);
	const outcome: SyncOutcome = {
		status: 'synced',
		at,
		counters,
		changes: { articleIds: [...changed], newArticles: fresh.length > 0 }
	};
	// The text is in: the screens take it now, not after the images; the index takes its words.
	textStored();
	await options.onSynced?.(outcome);

	// 5a. Full text of the feeds set to it (issue 59), after the text the screens wait for.
	const kept = await keepFullText();
	images.push(...kept.images);
	await keepImages(images, next, stored);
	return outcome;
}

/**
 * Reads a pack's newest articles; true when the list shifted under the read (its memberships are
 * then left as they were: an article the read missed keeps its place in the pack).
 */
async function syncPack(
	pack: OfflinePack,
	readList: ReadList,
	keep: (rows: Headline[], asked: Asked, pack?: string) => Promise<void>,
	account: string
): Promise<boolean> {
	const { ids, shifted } = await readList(
		{
			feedId: pack.feedId,
			isCat: pack.kind === 'cat',
			includeNested: pack.kind === 'cat',
			viewMode: 'all_articles',
			...CONTENT
		},
		pack.limit,
		(rows, asked) => keep(rows, asked, pack.id)
	);
	if (!shifted) await setPackMembers(pack.id, ids, { account });
	return shifted;
}
