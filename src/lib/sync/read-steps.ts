/**
 * The reading steps of a sync that found something moved (sync/engine.ts runs them in this
 * order): the new unread articles, the kept sets, the missing bodies, the offline packs. Each
 * takes what it needs and returns what it stored (its `Harvest`) with what the steps after it or
 * the bookkeeping need.
 */
import { SPECIAL_FEED, type Headline } from '$lib/api';
import {
	clearFlagOutside,
	idsWithoutContent,
	setPackMembers,
	storeArticleBodies,
	type KeptFlag
} from '$lib/cache/kept';
import { signedImagesOf } from '$lib/content/url';
import { imageUrls } from '$lib/offline/images';
import { counterMoves, type CounterSnapshot } from './counters';
import type { OfflinePack, SyncState } from './state';
import {
	CONTENT,
	askedNow,
	emptyHarvest,
	keepRows,
	type Harvest,
	type ListRead,
	type ReadList,
	type SyncRun
} from './sync-run';

/** Bodies asked for in one getArticle call. */
export const BODY_BATCH = 50;

/**
 * What the reading steps after the first are told: the state the last sync saved, whether this
 * one reads every set and pack, and how many articles the steps before stored (the progress).
 */
interface StepFacts {
	state: SyncState;
	full: boolean;
	storedBefore: number;
}

export interface NewArticles {
	/** The new unread articles, in the order they came. */
	fresh: Headline[];
	/** The newest article id kept, this sync's included. */
	newestId: number;
	/** The read itself: without a newest id it was the whole unread set. */
	read: ListRead;
	harvest: Harvest;
}

/** 1. New unread articles, with bodies, by `since_id` from the newest id kept. */
export async function readNewArticles(
	run: SyncRun,
	readList: ReadList,
	state: SyncState,
	snapshot: CounterSnapshot,
	articleCount: number
): Promise<NewArticles> {
	const harvest = emptyHarvest();
	run.report('new', 0);
	const fresh: Headline[] = [];
	let newestId = state.newestId;
	const read = await readList(
		{
			feedId: SPECIAL_FEED.all,
			viewMode: 'unread',
			sinceId: state.newestId || undefined,
			...CONTENT
		},
		articleCount,
		async (rows, asked) => {
			fresh.push(...rows);
			for (const h of rows) newestId = Math.max(newestId, h.id);
			await keepRows(run, harvest, rows, asked);
			run.report('new', harvest.stored);
		},
		// The whole unread set (no newest id yet): the counters say how many rows it holds.
		state.newestId ? undefined : snapshot.globalUnread
	);
	return { fresh, newestId, read, harvest };
}

export interface KeptSets {
	/** The articles the kept sets read hold (step 1's whole unread set aside). */
	keptIds: Set<number>;
	/** The sets this sync's read of them shifted under: the next sync's to read again. */
	readAgain: KeptFlag[];
	harvest: Harvest;
}

/**
 * 2. The kept sets whose counters moved beyond what the new articles explain (unread, starred,
 * published), or whose last read the list shifted under, read again as rows without bodies (a
 * headline is ~1 KB, a body many); cached copies outside a set read whole, with no shift left
 * unbridged, lose the flag.
 */
export async function readKeptSets(
	run: SyncRun,
	readList: ReadList,
	{
		state,
		snapshot,
		full,
		news,
		articleCount,
		storedBefore
	}: StepFacts & { snapshot: CounterSnapshot; news: NewArticles; articleCount: number }
): Promise<KeptSets> {
	const harvest = emptyHarvest();
	run.report('state', storedBefore);
	const moves = full
		? { unread: true, starred: true, published: true }
		: counterMoves(state.counters, snapshot, news.fresh);
	// A set the list shifted under last time is read again, though no counter moved since.
	const again = new Set(state.readAgain);
	const sets: [KeptFlag, number, boolean][] = [
		['unread', SPECIAL_FEED.all, moves.unread || again.has('unread')],
		['marked', SPECIAL_FEED.starred, moves.starred || again.has('marked')],
		['published', SPECIAL_FEED.published, moves.published || again.has('published')]
	];
	const keptIds = new Set<number>();
	const readAgain: KeptFlag[] = [];
	for (const [flag, feedId, moved] of sets) {
		if (!moved) continue;
		// Without a newest id, step 1 read the unread set itself (with bodies).
		if (flag === 'unread' && !state.newestId) {
			const first = news.read;
			if (first.shifted) readAgain.push(flag);
			if (first.complete)
				for (const id of await clearFlagOutside('unread', first.ids, first.asked)) {
					harvest.changed.add(id);
				}
			continue;
		}
		const { ids, complete, shifted, asked } = await readList(
			{
				feedId,
				viewMode: flag === 'unread' ? 'unread' : 'all_articles',
				includeAttachments: true
			},
			articleCount,
			async (rows, page) => {
				await keepRows(run, harvest, rows, page);
				run.report('state', storedBefore + harvest.stored);
			},
			flag === 'unread' ? snapshot.globalUnread : undefined
		);
		ids.forEach((id) => keptIds.add(id));
		if (shifted) readAgain.push(flag);
		// Only a set read whole, with no shift unbridged, says which cached copies lost the flag.
		if (complete)
			for (const id of await clearFlagOutside(flag, ids, asked)) harvest.changed.add(id);
	}
	return { keptIds, readAgain, harvest };
}

/** 3. Bodies of kept articles that have none (getArticle, in batches). */
export async function readMissingBodies(
	run: SyncRun,
	keptIds: ReadonlySet<number>,
	storedBefore: number
): Promise<Harvest> {
	const harvest = emptyHarvest();
	run.report('content', storedBefore);
	const missing = await idsWithoutContent([...keptIds]);
	for (let i = 0; i < missing.length; i += BODY_BATCH) {
		run.signal?.throwIfAborted();
		const asked = askedNow(run);
		const articles = await run.client.getArticle(
			{ articleIds: missing.slice(i, i + BODY_BATCH), sanitize: true },
			run.op
		);
		await storeArticleBodies(articles, asked);
		for (const a of articles) {
			harvest.changed.add(a.id);
			harvest.images.push(
				...imageUrls(a.content, a.link, signedImagesOf(a, run.client.imageProxy))
			);
			harvest.imageIds.add(a.id);
		}
		harvest.stored += articles.length;
		run.report('content', storedBefore + harvest.stored);
	}
	return harvest;
}

export interface PacksRead {
	/** Each pack's mark as this sync leaves it; a pack read the list shifted under has none. */
	packCounters: Record<string, string>;
	harvest: Harvest;
}

/**
 * 4. The offline packs whose mark moved (their place's counters, limit or enclosures), or that
 * never synced; `full` reads every one.
 */
export async function readPacks(
	run: SyncRun,
	readList: ReadList,
	{
		packs,
		markOf,
		state,
		full,
		storedBefore
	}: StepFacts & {
		packs: readonly OfflinePack[];
		/** A pack's mark now (sync/sync-plan.ts `SyncPlan.markOf`). */
		markOf: (pack: OfflinePack) => string;
	}
): Promise<PacksRead> {
	const harvest = emptyHarvest();
	run.report('packs', storedBefore);
	const packCounters: Record<string, string> = {};
	for (const pack of packs) {
		const sig = markOf(pack);
		packCounters[pack.id] = sig;
		if (!full && state.packCounters[pack.id] === sig) continue;
		// A pack read the list shifted under is read again by the next sync.
		if (await readPack(run, readList, pack, harvest)) delete packCounters[pack.id];
		run.report('packs', storedBefore + harvest.stored);
	}
	return { packCounters, harvest };
}

/**
 * Reads a pack's newest articles; true when the list shifted under the read (its memberships are
 * then left as they were: an article the read missed keeps its place in the pack).
 */
async function readPack(
	run: SyncRun,
	readList: ReadList,
	pack: OfflinePack,
	harvest: Harvest
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
		(rows, asked) => keepRows(run, harvest, rows, asked, pack.id)
	);
	if (!shifted) await setPackMembers(pack.id, ids, { account: run.account });
	return shifted;
}
