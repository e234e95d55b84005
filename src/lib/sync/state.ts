/**
 * The sync engine's bookkeeping in the IndexedDB store `sync` (v4), one record per account: the
 * counters seen at the last sync (to stop after one request when nothing moved), the newest
 * article id seen (for `since_id`), when the last sync succeeded, the server's configuration, and
 * the reader's offline packs. The store holds `unknown`: every read is narrowed here, so a record
 * written by another version can only ever read as "no state yet".
 */
import type { ServerConfig } from '$lib/api';
import type { KeptFlag } from '$lib/cache/kept';
import { getStored, isRecord, putStored, storedKey, storedKeyFamily } from '$lib/db/kv';
import type { CounterSnapshot } from './counters';

export interface SyncState {
	/** Counters at the last successful sync; undefined before the first one. */
	counters: CounterSnapshot | undefined;
	/** The newest article id stored by a sync: new articles are asked for with `since_id`. */
	newestId: number;
	/** When the last sync succeeded (ms): what "Updated" shows. */
	lastSyncAt: number | undefined;
	/**
	 * When the last sync asked for `counters` (ms). A change of the reader's the server confirmed
	 * since then moved them too, so equal counters no longer mean nothing arrived. Absent in a
	 * record of an older version: the next sync reads on.
	 */
	countersAt?: number;
	/** When every kept set was last compared in full, whatever the counters said (ms). */
	lastFullAt: number | undefined;
	/** Pack id → the counters of its feed, category or label at its last sync. */
	packCounters: Record<string, string>;
	/** getConfig (icons URL, custom sorts), kept for offline use. */
	config: ServerConfig | undefined;
	/** The article count the kept sets were filled up to (a larger setting fills them again). */
	articleCount: number;
	/**
	 * A sync stored text whose images were not all asked for yet (set before its images, cleared
	 * after): the next sync asks for the kept articles' images again, even when nothing changed.
	 */
	imagesPending?: boolean;
	/**
	 * With `imagesPending`: the articles whose images those syncs had collected, so the next one
	 * reads just their bodies. Absent (a record of an older version): every kept article's.
	 */
	imagesPendingIds?: number[];
	/**
	 * The kept sets whose last read the list shifted under (api/paging.ts `headlinePages`): it
	 * cleared no flag, and the next sync reads them again whatever the counters say.
	 */
	readAgain?: KeptFlag[];
}

export const EMPTY_STATE: SyncState = {
	counters: undefined,
	newestId: 0,
	lastSyncAt: undefined,
	lastFullAt: undefined,
	packCounters: {},
	config: undefined,
	articleCount: 0
};

export type PackKind = 'feed' | 'cat' | 'label';

/** A category, feed or label the reader keeps available offline, with its own article limit. */
export interface OfflinePack {
	/** `feed:12`, `cat:3`, `label:-1026`: one pack per place. */
	id: string;
	kind: PackKind;
	/** The feed, category or label feed id (labels: the feed-style id, current numbering). */
	feedId: number;
	title: string;
	/** Newest articles kept (1…MAX_PACK_LIMIT). */
	limit: number;
	/** Whether enclosures (podcast audio, video) are kept too. */
	enclosures: boolean;
}

export const MAX_PACK_LIMIT = 1000;
export const DEFAULT_PACK_LIMIT = 100;

export function packId(kind: PackKind, feedId: number): string {
	return `${kind}:${feedId}`;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isKeptFlag = (v: unknown): v is KeptFlag =>
	v === 'unread' || v === 'marked' || v === 'published';

/** Narrows a stored value; anything unexpected reads as the empty state. */
export function parseState(value: unknown): SyncState {
	if (!isObject(value)) return { ...EMPTY_STATE };
	const counters = isObject(value.counters)
		? (value.counters as unknown as CounterSnapshot)
		: undefined;
	const packCounters: Record<string, string> = {};
	if (isObject(value.packCounters)) {
		for (const [k, v] of Object.entries(value.packCounters))
			if (typeof v === 'string') packCounters[k] = v;
	}
	const readAgain = Array.isArray(value.readAgain)
		? [...new Set(value.readAgain.filter(isKeptFlag))]
		: [];
	return {
		counters,
		newestId: isCount(value.newestId) ? value.newestId : 0,
		lastSyncAt: isTime(value.lastSyncAt) ? value.lastSyncAt : undefined,
		...(isTime(value.countersAt) ? { countersAt: value.countersAt } : {}),
		lastFullAt: isTime(value.lastFullAt) ? value.lastFullAt : undefined,
		packCounters,
		config: isObject(value.config) ? (value.config as unknown as ServerConfig) : undefined,
		articleCount: isCount(value.articleCount) ? value.articleCount : 0,
		...(value.imagesPending === true ? { imagesPending: true } : {}),
		...(value.imagesPending === true &&
		Array.isArray(value.imagesPendingIds) &&
		value.imagesPendingIds.every(isCount)
			? { imagesPendingIds: value.imagesPendingIds }
			: {}),
		...(readAgain.length > 0 ? { readAgain } : {})
	};
}

export function parsePacks(value: unknown): OfflinePack[] {
	if (!Array.isArray(value)) return [];
	const packs: OfflinePack[] = [];
	for (const v of value) {
		if (!isObject(v)) continue;
		const kind = v.kind;
		if (kind !== 'feed' && kind !== 'cat' && kind !== 'label') continue;
		if (!Number.isInteger(v.feedId)) continue;
		const feedId = v.feedId as number;
		packs.push({
			id: packId(kind, feedId),
			kind,
			feedId,
			title: typeof v.title === 'string' ? v.title : '',
			limit:
				isCount(v.limit) && v.limit >= 1 ? Math.min(v.limit, MAX_PACK_LIMIT) : DEFAULT_PACK_LIMIT,
			enclosures: v.enclosures === true
		});
	}
	return packs;
}

/** An account's sync bookkeeping (`sync` store). */
export const SYNC_STATE = storedKeyFamily<SyncState>({
	store: 'sync',
	prefix: 'state:',
	owner: 'sync/state.ts',
	// Each field is kept or defaulted on its own (parseState); only a value that is no object is bad.
	parse: (raw) => (isRecord(raw) ? parseState(raw) : undefined),
	fallback: () => ({ ...EMPTY_STATE })
});

/** An account's offline packs (`sync` store). */
export const PACKS = storedKeyFamily<OfflinePack[]>({
	store: 'sync',
	prefix: 'packs:',
	owner: 'sync/state.ts',
	parse: (raw) => (Array.isArray(raw) ? parsePacks(raw) : undefined),
	fallback: () => []
});

export async function loadSyncState(account: string): Promise<SyncState> {
	return getStored(SYNC_STATE(account));
}

export async function saveSyncState(account: string, state: SyncState): Promise<void> {
	await putStored(SYNC_STATE(account), state);
}

export async function loadPacks(account: string): Promise<OfflinePack[]> {
	return getStored(PACKS(account));
}

export async function savePacks(account: string, packs: readonly OfflinePack[]): Promise<void> {
	await putStored(PACKS(account), parsePacks(packs));
}

export const DEFAULT_ARTICLE_COUNT = 500;

/** The reader's article count, where the worker can read it (localStorage is the page's only). */
export const ARTICLE_COUNT = storedKey<number>({
	store: 'sync',
	name: 'prefs.articleCount',
	owner: 'sync/state.ts',
	parse: (raw) => (isCount(raw) ? raw : undefined),
	fallback: () => DEFAULT_ARTICLE_COUNT
});

export async function saveArticleCount(count: number): Promise<void> {
	await putStored(ARTICLE_COUNT, count);
}

export async function loadArticleCount(): Promise<number> {
	return getStored(ARTICLE_COUNT);
}
