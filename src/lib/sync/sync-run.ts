/**
 * What every step of one sync shares (sync/engine.ts): the run (the client, the account, the
 * clock, the progress), the reading of a list in pages, and the harvest a step returns (the
 * articles it stored and the images they name). A step gets these as arguments and returns its
 * harvest; the engine joins the harvests in the order the steps ran.
 */
import type { GetHeadlinesParams, Headline, TtrssClient } from '$lib/api';
import { headlinePages } from '$lib/api/paging';
import { storeOfflineHeadlines, type SyncedFor } from '$lib/cache/kept';
import { signedImagesOf } from '$lib/content/url';
import { batchSize } from '$lib/offline/policy';
import { articleImageUrls } from '$lib/offline/images';
import type { SyncPhase } from './contract';

/**
 * Pages of a list asked for at once (headlinePages' `inFlight`): tt-rss answers each in one PHP
 * worker, and a server has several. On the test bed a fresh database's 200-article content page
 * takes ~350 ms whether asked alone or beside another: six pages took 2.0–2.2 s one after the
 * other and 1.0–1.1 s two at a time (three: 0.9 s). Two keep a small server's other workers free.
 */
export const PAGES_IN_FLIGHT = 2;

/** A list read with its articles' bodies and enclosures. */
export const CONTENT: Pick<
	GetHeadlinesParams,
	'showContent' | 'includeAttachments' | 'hasSandbox'
> = {
	showContent: true,
	includeAttachments: true,
	// The reader sandboxes embedded iframes (see src/lib/content).
	hasSandbox: true
};

/** The account an answer was fetched for and when it was asked for: what the cache's writes take. */
export type Asked = Required<SyncedFor>;

/** One sync's fixed facts, handed to every step. */
export interface SyncRun {
	client: TtrssClient;
	account: string;
	signal: AbortSignal | undefined;
	/** The request options every call of the sync takes (its signal). */
	op: { signal?: AbortSignal };
	now: () => number;
	/** Tells the caller the phase and how many articles the sync has stored so far. */
	report: (phase: SyncPhase, stored: number) => void;
}

/**
 * What this sync writes carries the time it was asked for: a change the server confirms after
 * that (the reader opened an article) is put back on over it (outbox/sent-log.ts). Each page has
 * its own time — a sync of many pages may run longer than the sent log keeps its entries, and an
 * answer dated by the sync's start would then not know which of the reader's changes it misses (an
 * article not cached would be stored with a state the reader changed since).
 */
export function askedNow(run: SyncRun): Asked {
	return { account: run.account, readAt: run.now() };
}

/** What one step stored: the articles it changed, the images they name, how many it stored. */
export interface Harvest {
	changed: Set<number>;
	images: string[];
	/** The articles `images` came from: what the next sync reads again if these are cut short. */
	imageIds: Set<number>;
	stored: number;
}

export function emptyHarvest(): Harvest {
	return { changed: new Set(), images: [], imageIds: new Set(), stored: 0 };
}

/** The harvests of several steps as one, in the order the steps ran. */
export function joinHarvests(...parts: Harvest[]): Harvest {
	const joined = emptyHarvest();
	for (const part of parts) {
		part.changed.forEach((id) => joined.changed.add(id));
		joined.images.push(...part.images);
		part.imageIds.forEach((id) => joined.imageIds.add(id));
		joined.stored += part.stored;
	}
	return joined;
}

/** Stores a page of rows (into a pack when named) and adds them to the step's harvest. */
export async function keepRows(
	run: SyncRun,
	harvest: Harvest,
	rows: Headline[],
	asked: Asked,
	pack?: string
): Promise<void> {
	if (rows.length === 0) return;
	await storeOfflineHeadlines(rows, pack === undefined ? asked : { pack, ...asked });
	for (const h of rows) {
		harvest.changed.add(h.id);
		// Where the Reader plugin signs the account's images, only its proxy addresses.
		harvest.images.push(...articleImageUrls(h, signedImagesOf(h, run.client.imageProxy)));
		if (h.content || h.flavorImage) harvest.imageIds.add(h.id);
	}
	harvest.stored += rows.length;
}

/** A list read whole or in part. */
export interface ListRead {
	ids: Set<number>;
	/** The server had no more, and the list did not shift under the pages: absence proves a loss. */
	complete: boolean;
	/** The list shifted under the pages beyond what a bridge could join (api/paging.ts). */
	shifted: boolean;
	asked: Asked;
}

export type ReadList = (
	params: Omit<GetHeadlinesParams, 'skip' | 'limit' | 'includeHeader' | 'checkFirstId'>,
	max: number,
	onPage: (rows: Headline[], asked: Asked) => Promise<void>,
	/** Rows the list is known to hold (the counters'): its pages are asked for two at a time. */
	expected?: number
) => Promise<ListRead>;

/**
 * The run's way to read a list in pages of the server's size, at most `max` rows; `complete` when
 * the server had no more. The next pages are asked for while this one is written (headlinePages'
 * prefetch), two at a time within `expected` (`PAGES_IN_FLIGHT`), so the sync takes about the
 * server's time or less. Each page comes with the time its own request started (never later than
 * the server's read, even when it was asked for before the page before it was written); `asked`
 * is the first page's, the time of the set as a whole. Each page after the first begins on the
 * row the one before it ended with, so a list that shifts between pages shows, and is bridged or
 * reported (`shifted`: then the set is not `complete`, whatever it holds).
 */
export async function listReader(run: SyncRun): Promise<ReadList> {
	const caps = await run.client.detectCapabilities(run.op);
	const pageSize = Math.max(1, Math.min(batchSize(caps.headlineLimit), caps.headlineLimit));
	return async (params, max, onPage, expected) => {
		const ids = new Set<number>();
		// Before any request: the set's time when no page came (an empty set).
		const before = askedNow(run);
		let first: Asked | undefined;
		let shifted = false;
		if (max <= 0) return { ids, complete: false, shifted, asked: before };
		for await (const { rows, askedAt } of headlinePages(run.client, params, {
			...run.op,
			pageSize,
			max,
			now: run.now,
			prefetch: true,
			inFlight: PAGES_IN_FLIGHT,
			expected,
			onShifted: () => {
				shifted = true;
			}
		})) {
			const asked: Asked = { account: run.account, readAt: askedAt };
			first ??= asked;
			rows.forEach((h) => ids.add(h.id));
			await onPage(rows, asked);
		}
		return { ids, complete: !shifted && ids.size < max, shifted, asked: first ?? before };
	};
}
