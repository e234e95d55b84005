/**
 * The outbox in IndexedDB as every screen reads it: the pending and failed lists, and rows or
 * counters as the reader's queued changes leave them. The writes (enqueue, retry, discard) are in
 * enqueue.ts; every change is announced to all tabs and the worker (broadcast.ts).
 */
import type { FailedItem, OutboxItem } from '$lib/db/schema';
import { failedOutboxItems, outboxCount, outboxItems, readStores } from '$lib/db/stores';
import type { ArticleBase, Counters, FeedTree } from '$lib/api';
import { CACHE_OWNER } from '$lib/db/keys';
import { readIn } from '$lib/db/kv';
import { applyCatchupToCounters, applyToArticle, laterThanCatchups, needsTree } from './apply';
import { changesNotIn, type NotShown } from './sent-log';
import { titlesOf } from '$lib/tree/walk';
import type { Intent, IntentNames, CatchupIntent } from './intent';
export async function intentNames(intents: readonly Intent[]): Promise<IntentNames> {
	const ids = new Set(
		intents.flatMap((i) =>
			i.type === 'note' ? [i.articleId] : 'articleIds' in i ? i.articleIds : []
		)
	);
	const withTitles = intents.some(needsTree);
	if (ids.size === 0 && !withTitles) return { articles: new Map(), titles: new Map() };
	return readStores(['articles', 'tree'], async (stores) => {
		const articles = new Map<number, string>();
		for (const id of ids) {
			const article = await stores.articles.get(id);
			if (article?.title) articles.set(id, article.title);
		}
		const tree = withTitles ? (await stores.tree.get('current'))?.tree : undefined;
		return { articles, titles: titlesOf(tree) };
	});
}

/** Changes submitted here that are on screen already but not yet committed to the outbox. */
const beingQueued = new Set<Intent>();

/**
 * Marks an intent as on its way into the outbox: the screen shows it from now on, and a server
 * answer that arrives before it is queued must not take it back (`withQueuedChanges`). Returns the
 * function that ends the mark, once the intent is queued or refused.
 */
export function markBeingQueued(intent: Intent): () => void {
	beingQueued.add(intent);
	return () => beingQueued.delete(intent);
}

/**
 * The reader's changes a server answer asked for at `readAt` may not show: those the server
 * confirmed since (the sent log), those queued or held, and those being queued here, oldest first.
 */
export async function changesNotShown(
	readAt: number | undefined,
	withTree: boolean
): Promise<{ changes: NotShown[]; tree: FeedTree | undefined }> {
	// Taken before the outbox is read: an intent queued meanwhile is in one or the other.
	const queuing = [...beingQueued];
	return readStores(['outbox', 'tree', 'settings'], async (stores) => {
		const owner = await readIn(stores.settings, CACHE_OWNER);
		const { changes } = await changesNotIn(stores, owner, readAt);
		const all: NotShown[] = [...changes, ...queuing.map((intent) => ({ intent }))];
		const tree =
			withTree && all.some((c) => needsTree(c.intent))
				? (await stores.tree.get('current'))?.tree
				: undefined;
		return { changes: all, tree };
	});
}

/**
 * Rows (or an opened article) from the server as the reader's changes leave them, by the rule the
 * cache applies when it stores them: a change still waiting (or held for an Undo, or being
 * queued) must not be undone on screen by an answer the server gave before the change was sent.
 */
export async function withQueuedChanges<T extends ArticleBase>(
	rows: readonly T[],
	/** When the rows were asked for: changes the server confirmed since are applied too. */
	readAt?: number
): Promise<T[]> {
	try {
		const { changes, tree } = await changesNotShown(readAt, true);
		if (changes.length === 0) return [...rows];
		const later = laterThanCatchups(changes);
		return rows.map((row) => {
			const copy: T = { ...row, labels: [...row.labels] };
			for (const [index, { intent }] of changes.entries()) {
				applyToArticle(copy, intent, tree, later[index]);
			}
			return copy;
		});
	} catch {
		// Unreadable: the server's rows as they are.
		return [...rows];
	}
}

/**
 * The server's counters as the reader's catch-ups not in them leave them (queued, held, being
 * queued, or confirmed after `readAt`): zero, as when the catch-up was queued. A single article's
 * read change is not applied: whether the server counted it is not known here; the counters are
 * read again once the outbox is empty.
 */
export async function withQueuedCounters(
	counters: Counters,
	tree: FeedTree | undefined,
	readAt?: number
): Promise<Counters> {
	try {
		const { changes } = await changesNotShown(readAt, false);
		const catchups = changes
			.map((c) => c.intent)
			.filter((i): i is CatchupIntent => i.type === 'catchup');
		if (catchups.length === 0) return counters;
		const copy = structuredClone(counters);
		for (const intent of catchups) applyCatchupToCounters(copy, tree, intent);
		return copy;
	} catch {
		return counters;
	}
}

export function pendingItems(): Promise<OutboxItem[]> {
	return outboxItems();
}

export function pendingCount(): Promise<number> {
	return outboxCount();
}

export function failedItems(): Promise<FailedItem[]> {
	return failedOutboxItems();
}
