/**
 * The offline search index kept in IndexedDB (store `search`) and in memory, loaded only when
 * the reader searches or indexing runs (index.ts imports this module lazily). One record per
 * article (`doc:<id>`: its words), so a change writes one record and never re-serialises the
 * whole index. All work is cut into slices that give the page back well within 50 ms.
 *
 * The index follows the `articles` store: a write that went around the hooks (another tab, the
 * service worker, an older app version, a cleared store) is found by comparing the store's count
 * and newest `storedAt` with the last look, and mended from the articles themselves.
 */
import type { Headline } from '$lib/api';
import { cachedRows } from '$lib/cache/cache-reads';
import { mayWriteCache } from '$lib/db/account';
import { CACHE_OWNER } from '$lib/db/keys';
import { readIn } from '$lib/db/kv';
import type { StoredArticle } from '$lib/db/schema';
import { readStores, writeStores } from '$lib/db/stores';
import { searchRecord, searchRecords } from '$lib/db/later-reads';
import { settleTimer } from '$lib/timing/settle';
import { docOf, rowMatches, SearchIndex, type IndexedDoc } from './inverted-index';
import { hasPositiveTerm, parseQuery, type QueryTerm } from './query';

/** Bump when the words kept per article change: older records are then rebuilt. */
export const INDEX_VERSION = 1;
const META_KEY = 'meta';
const DOC_PREFIX = 'doc:';
/** The doc records' key range: `doc:` followed by anything. */
const DOC_RANGE = (): IDBKeyRange => IDBKeyRange.bound(DOC_PREFIX, `${DOC_PREFIX}\uffff`);

interface MetaRecord {
	version: number;
}

/** A doc as stored (short keys: ten thousand of them). */
interface DocRecord {
	i: number;
	s: number;
	u: number;
	f: number | null;
	t: string;
}

const toRecord = (d: IndexedDoc): DocRecord => ({
	i: d.id,
	s: d.storedAt,
	u: d.updated,
	f: d.feedId,
	t: d.tokens
});
const fromRecord = (r: DocRecord): IndexedDoc => ({
	id: r.i,
	storedAt: r.s,
	updated: r.u,
	feedId: r.f,
	tokens: r.t
});

function isDocRecord(value: unknown): value is DocRecord {
	const r = value as Partial<DocRecord> | null;
	return typeof r === 'object' && r !== null && typeof r.i === 'number' && typeof r.t === 'string';
}

/** Work done between two yields; well below the 50 ms of a long task. */
const SLICE_MS = 8;
/**
 * Articles read per transaction while indexing: their bodies are copied out of IndexedDB on the
 * page's thread, so a batch of long ones must stay far below a long task.
 */
const ARTICLE_BATCH = 50;
/** Index records read per transaction when the index loads (a few hundred bytes each). */
const RECORD_BATCH = 500;

const now = (): number => performance.now();
const yieldToPage = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** Runs `work` on each item, giving the page back every SLICE_MS. */
async function sliced<T>(items: readonly T[], work: (item: T) => void): Promise<void> {
	let start = now();
	for (const item of items) {
		work(item);
		if (now() - start > SLICE_MS) {
			await yieldToPage();
			start = now();
		}
	}
}

// ------------------------------------------------------------------ the one index of this page

let engine: SearchIndex | undefined;
let loading: Promise<SearchIndex> | undefined;
/** The articles store as last reconciled: `count:newest storedAt`. */
let seen: string | undefined;
/** Index changes run one at a time, in order. */
let queue: Promise<unknown> = Promise.resolve();

function serial<T>(task: () => Promise<T>): Promise<T> {
	const run = queue.then(task, task);
	queue = run.catch(() => undefined);
	return run;
}

/** Test hook: forgets the index in memory (the records stay). */
export function resetIndexerForTests(): void {
	engine = undefined;
	loading = undefined;
	seen = undefined;
	queue = Promise.resolve();
}

/** The index, loaded and brought up to date with the articles store. */
export function readyIndex(): Promise<SearchIndex> {
	loading ??= serial(async () => {
		const index = new SearchIndex();
		await loadRecords(index);
		engine = index;
		await reconcile(index);
		return index;
	}).catch((error: unknown) => {
		loading = undefined;
		throw error;
	});
	return loading;
}

async function loadRecords(index: SearchIndex): Promise<void> {
	const meta = (await searchRecord(META_KEY)) as MetaRecord | undefined;
	if (meta?.version !== INDEX_VERSION) {
		// Missing (cleared, first run) or from another version: start again from the articles.
		await writeStores(['search'], async ({ search }) => {
			await search.clear();
			await search.put({ version: INDEX_VERSION } satisfies MetaRecord, META_KEY);
		});
		return;
	}
	let after: string | undefined;
	for (;;) {
		const range = after ? IDBKeyRange.bound(after, `${DOC_PREFIX}\uffff`, true) : DOC_RANGE();
		const [keys, values] = await readStores(['search'], ({ search }) =>
			Promise.all([search.getAllKeys(range, RECORD_BATCH), search.getAll(range, RECORD_BATCH)])
		);
		await sliced(values, (value) => {
			if (isDocRecord(value)) index.add(fromRecord(value));
		});
		if (keys.length < RECORD_BATCH) return;
		after = keys[keys.length - 1];
	}
}

async function fingerprint(): Promise<string> {
	const [count, newest] = await readStores(['articles'], ({ articles }) =>
		Promise.all([articles.count(), articles.index('byStoredAt').openKeyCursor(null, 'prev')])
	);
	return `${count}:${newest?.key ?? 0}`;
}

/**
 * Makes the index match the articles store: articles missing or stored again since they were
 * indexed are (re)indexed, ids no longer cached leave. Reads keys only, then the records that
 * need indexing, a batch at a time.
 */
async function reconcile(index: SearchIndex): Promise<void> {
	const before = await fingerprint();
	const stored = new Map<number, number>();
	await readStores(['articles'], async ({ articles }) => {
		let cursor = await articles.index('byStoredAt').openKeyCursor();
		while (cursor) {
			stored.set(cursor.primaryKey, cursor.key);
			cursor = await cursor.continue();
		}
	});
	const gone = [...index.ids()].filter((id) => !stored.has(id));
	await dropDocs(index, gone);
	const stale = [...stored].filter(([id, at]) => index.get(id)?.storedAt !== at).map(([id]) => id);
	for (let i = 0; i < stale.length; i += ARTICLE_BATCH) {
		const ids = stale.slice(i, i + ARTICLE_BATCH);
		const rows = await readStores(['articles'], ({ articles }) =>
			Promise.all(ids.map((id) => articles.get(id)))
		);
		if (
			!(await writeDocs(
				index,
				rows.filter((r): r is StoredArticle => r !== undefined)
			))
		)
			return;
		await yieldToPage();
	}
	seen = before;
}

/**
 * Indexes these articles and stores their records. False when the index was cleared meanwhile
 * (another account signed in here): the caller stops and the next search starts again.
 */
async function writeDocs(
	index: SearchIndex | undefined,
	articles: readonly StoredArticle[]
): Promise<boolean> {
	const docs: IndexedDoc[] = [];
	await sliced(articles, (article) => docs.push(docOf(article)));
	const written = await writeStores(['search', 'settings'], async (stores) => {
		const store = stores.search;
		const meta = (await store.get(META_KEY)) as MetaRecord | undefined;
		// Cleared meanwhile, or the cache is no longer this page's account's (signed out, or another
		// account signed in): its words stay out of the index.
		const owner = await readIn(stores.settings, CACHE_OWNER);
		if (meta?.version !== INDEX_VERSION || !mayWriteCache(owner)) return false;
		await Promise.all(docs.map((doc) => store.put(toRecord(doc), `${DOC_PREFIX}${doc.id}`)));
		return true;
	});
	if (!written) {
		forget();
		return false;
	}
	if (index) await sliced(docs, (doc) => index.add(doc));
	return true;
}

async function dropDocs(index: SearchIndex | undefined, ids: readonly number[]): Promise<void> {
	if (ids.length === 0) return;
	await writeStores(['search'], ({ search }) =>
		Promise.all(ids.map((id) => search.delete(`${DOC_PREFIX}${id}`)))
	);
	for (const id of ids) index?.remove(id);
}

function forget(): void {
	engine = undefined;
	loading = undefined;
	seen = undefined;
}

// ------------------------------------------------------------------ hooks (see index.ts)

/**
 * Applies what the cache just wrote or dropped. With the index in memory, to it and its records;
 * without, to the records only (the index loads when the reader searches). A store that was
 * never indexed is built now, in the background.
 */
export function applyChanges(
	added: readonly StoredArticle[],
	removed: readonly number[]
): Promise<void> {
	return serial(async () => {
		const meta = (await searchRecord(META_KEY)) as MetaRecord | undefined;
		if (meta?.version !== INDEX_VERSION) {
			forget();
			void readyIndex().catch(() => undefined);
			return;
		}
		await dropDocs(engine, removed);
		await writeDocs(engine, added);
		// Loaded: check for writes that went around the hooks now, not when the reader searches.
		if (engine) reconcileLater.changed();
	});
}

/** The index is mended a second after the last write of the articles store. */
const reconcileLater = settleTimer(() => void mend().catch(() => undefined), { quietMs: 1000 });

/** Reconciles the index in memory if the articles store changed since the last look. */
function mend(): Promise<SearchIndex | undefined> {
	return serial(async () => {
		const meta = (await searchRecord(META_KEY)) as MetaRecord | undefined;
		if (meta?.version !== INDEX_VERSION || !engine) {
			forget();
			return undefined;
		}
		if ((await fingerprint()) !== seen) await reconcile(engine);
		return engine;
	});
}

// ------------------------------------------------------------------ searching

export interface LocalSearchOptions {
	query: string;
	/** Only articles of these feeds (a feed or a category's feeds); undefined: every feed. */
	feeds?: ReadonlySet<number>;
	/** What the row itself must be (starred, a label, unread in that view mode…). */
	keep?: (row: Headline) => boolean;
	oldestFirst?: boolean;
	/**
	 * Only articles dated at or after this (seconds): what `keep` also says, told first by the
	 * articles' date index so a list of recent ones (Today) reads only those.
	 */
	updatedSince?: number;
}

/** Results read a page at a time, in date order, each row checked against what it must be. */
export class LocalResults {
	readonly #ids: number[];
	readonly #options: LocalSearchOptions;
	readonly #checks: readonly QueryTerm[];
	#at = 0;

	constructor(ids: number[], checks: readonly QueryTerm[], options: LocalSearchOptions) {
		this.#ids = ids;
		this.#checks = checks;
		this.#options = options;
	}

	get done(): boolean {
		return this.#at >= this.#ids.length;
	}

	/** Up to `count` more results (fewer only at the end). */
	async next(count: number): Promise<Headline[]> {
		const found: Headline[] = [];
		while (found.length < count && !this.done) {
			const ids = this.#ids.slice(this.#at, this.#at + Math.max(count - found.length, 20));
			this.#at += ids.length;
			for (const row of await cachedRows(ids)) {
				if (this.#options.keep && !this.#options.keep(row)) continue;
				if (!this.#checks.every((term) => rowMatches(row, term))) continue;
				found.push(row);
			}
		}
		return found;
	}
}

/** Searches the cached articles. An empty query or one of exclusions only finds nothing. */
export async function searchLocal(options: LocalSearchOptions): Promise<LocalResults> {
	const parsed = parseQuery(options.query);
	if (!hasPositiveTerm(parsed)) return new LocalResults([], [], options);
	await readyIndex();
	// Written around the hooks since the last look (another tab, the worker): mend first.
	const index = (await mend()) ?? (await readyIndex());
	const { ids, checks } = index.match(parsed, { oldestFirst: options.oldestFirst ?? false });
	const feeds = options.feeds;
	const inScope = feeds
		? ids.filter((id) => {
				const feedId = index.get(id)?.feedId;
				return feedId !== null && feedId !== undefined && feeds.has(feedId);
			})
		: ids;
	return new LocalResults(inScope, checks, options);
}

/** What the bench reports: records and their bytes as stored (JSON length, UTF-16 aside). */
export async function indexFootprint(): Promise<{ docs: number; bytes: number }> {
	const values = await searchRecords(DOC_RANGE());
	let bytes = 0;
	for (const value of values) bytes += JSON.stringify(value).length;
	return { docs: values.length, bytes };
}
