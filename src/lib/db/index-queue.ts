/**
 * The offline search's change queue, fed by the cache's writes and by eviction (quota.ts) — which
 * the service worker bundles too, so this file holds no dynamic import (a classic worker script
 * cannot have one) and no index code. It queues what changed; the page's side (search/page-search.ts)
 * registers where the queue goes and loads the index lazily. In db/ so that the stored data and
 * the eviction below it need not import the search feature. See docs/offline-search.md.
 */
import type { StoredArticle } from './schema';

/** Where queued changes go: set by the page (search/page-search.ts), never in the worker. */
export type IndexSink = (added: StoredArticle[], removed: number[]) => void;

const added = new Map<number, StoredArticle>();
const removed = new Set<number>();
let sink: IndexSink | undefined;
let scheduled = false;
/** Holds taken (holdIndexing) and not yet released: nothing is handed over meanwhile. */
let holds = 0;

/**
 * Only a page keeps the index: in the service worker a change is left for the page, which finds
 * it by comparing the index with the articles store (indexer.ts).
 */
const inPage = (): boolean => 'document' in globalThis;

/** Typed structurally: the worker's program (webworker lib, no DOM) type-checks this file too. */
// Bound: a detached requestIdleCallback throws "Illegal invocation".
const idle = (
	globalThis as { requestIdleCallback?: (f: () => void, o: { timeout: number }) => void }
).requestIdleCallback?.bind(globalThis);

function flushLater(): void {
	if (scheduled || !sink || holds > 0) return;
	scheduled = true;
	const flush = (): void => {
		scheduled = false;
		// A hold taken after this was scheduled: its release hands everything over at once.
		if (holds > 0) return;
		const articles = [...added.values()];
		const ids = [...removed];
		added.clear();
		removed.clear();
		if (articles.length > 0 || ids.length > 0) sink?.(articles, ids);
	};
	if (idle) idle(flush, { timeout: 2000 });
	else setTimeout(flush, 200);
}

/** The page's side takes the queued changes from now on (changes made before it included). */
export function setIndexSink(next: IndexSink): void {
	sink = next;
	flushLater();
}

/**
 * Articles just written to the cache (after their transaction committed): their words are
 * (re)indexed in idle time. Never throws and never delays the caller.
 */
export function indexArticles(articles: readonly StoredArticle[]): void {
	if (!inPage() || articles.length === 0) return;
	for (const article of articles) {
		added.set(article.id, article);
		removed.delete(article.id);
	}
	flushLater();
}

/** Article ids just dropped from the cache (eviction, clearing): they leave the index. */
export function unindexArticles(ids: readonly number[]): void {
	if (!inPage() || ids.length === 0) return;
	for (const id of ids) {
		removed.add(id);
		added.delete(id);
	}
	flushLater();
}

/**
 * Keeps what is queued from now on until the returned release is called (once; again does
 * nothing), then hands it over in one batch. A sync's pages take it: tokenising and writing each
 * page's words competed for the CPU with the server answering the next page (on a phone, with
 * everything else the page does), and one batch after the text is one index write, not one a page.
 */
export function holdIndexing(): () => void {
	holds += 1;
	let released = false;
	return () => {
		if (released) return;
		released = true;
		holds -= 1;
		flushLater();
	};
}
