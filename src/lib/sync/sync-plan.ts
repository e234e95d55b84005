/**
 * A sync's bookkeeping (sync/engine.ts): what it must read, given the counters and what the last
 * sync saved, and what it saves for the next one once it has read.
 */
import type { Counters } from '$lib/api';
import type { KeptFlag } from '$lib/cache/kept';
import { confirmedSince } from '$lib/outbox/sent-log';
import { packCounterOf, sameSnapshot, type CounterSnapshot } from './counters';
import type { OfflinePack, SyncState } from './state';

/** Every kept set is compared in full at least this often, whatever the counters say. */
export const FULL_SYNC_EVERY_MS = 6 * 60 * 60_000;

export interface SyncPlan {
	/** Every kept set and pack is read, whatever the counters say. */
	full: boolean;
	/**
	 * A pack's mark names its place's counters, its limit and whether it keeps enclosures: a new
	 * or changed pack is due.
	 */
	markOf: (pack: OfflinePack) => string;
	/** Some pack's mark is not the one the last sync saved. */
	packsDue: boolean;
}

export function planSync({
	state,
	counters,
	packs,
	articleCount,
	fullAsked,
	now
}: {
	state: SyncState;
	counters: Counters;
	packs: readonly OfflinePack[];
	articleCount: number;
	/** "Sync now": compare every kept set even if the counters did not move. */
	fullAsked: boolean;
	now: () => number;
}): SyncPlan {
	const full =
		fullAsked ||
		state.counters === undefined ||
		articleCount > state.articleCount ||
		state.lastFullAt === undefined ||
		now() - state.lastFullAt >= FULL_SYNC_EVERY_MS;
	const markOf = (pack: OfflinePack): string =>
		`${packCounterOf(counters, pack)}/${pack.limit}${pack.enclosures ? '/enclosures' : ''}`;
	const packsDue = packs.some((pack) => state.packCounters[pack.id] !== markOf(pack));
	return { full, markOf, packsDue };
}

/**
 * Equal counters say nothing changed only when none of the reader's own changes reached the
 * server since they were last read: one read and one arrival leave the same counts. (The sent log
 * is read only when the rest already says "unchanged".)
 */
export async function nothingMoved(
	account: string,
	state: SyncState,
	snapshot: CounterSnapshot,
	plan: SyncPlan
): Promise<boolean> {
	return (
		!plan.full &&
		!plan.packsDue &&
		state.counters !== undefined &&
		state.countersAt !== undefined &&
		sameSnapshot(state.counters, snapshot) &&
		(state.readAgain ?? []).length === 0 &&
		!(await confirmedSince(account, state.countersAt))
	);
}

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

/** What a sync that read saves for the next one. */
export function nextSyncState({
	state,
	snapshot,
	countersAt,
	at,
	full,
	newestId,
	packCounters,
	config,
	articleCount,
	images,
	imageIds,
	readAgain
}: {
	state: SyncState;
	snapshot: CounterSnapshot;
	countersAt: number;
	at: number;
	full: boolean;
	newestId: number;
	packCounters: Record<string, string>;
	config: SyncState['config'];
	articleCount: number;
	images: readonly string[];
	imageIds: ReadonlySet<number>;
	readAgain: readonly KeptFlag[];
}): SyncState {
	return {
		counters: snapshot,
		countersAt,
		newestId,
		lastSyncAt: at,
		lastFullAt: full ? at : state.lastFullAt,
		packCounters,
		config: config,
		articleCount: Math.max(articleCount, full ? articleCount : state.articleCount),
		imagesPending: state.imagesPending === true || images.length > 0,
		...pendingImageIds(state, imageIds),
		...(readAgain.length > 0 ? { readAgain: [...readAgain] } : {})
	};
}
