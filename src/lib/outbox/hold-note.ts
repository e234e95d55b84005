/**
 * The part of a hold (hold.ts) a cache write needs: what a held item is and what undoing it puts
 * back, noted as the cache stores the articles it changes. Apart from hold.ts (releasing and
 * cancelling a hold), so the first screen's code, which writes the cache, does not carry the undo.
 */
import type { FeedTree } from '$lib/api';
import type { OutboxItem, StoredArticle } from '$lib/db/schema';
import { applyToArticle, type LaterChange } from './apply';
import type { Intent } from './intent';

// What a hold stores (its undo, the counters it moved) is a stored shape: db/schema.ts.
export type { CounterList, CounterValue, HoldUndo } from '$lib/db/schema';

/** Which undoable action, and until when its items wait (ms). */
export interface Hold {
	id: string;
	until: number;
}

/**
 * Applies a queued item to an article a cache write stores (a sync, a list page). When the item is
 * held and the article was not cached when it was queued, notes what undoing it must put back for
 * this article too: the article's state before it (flags, labels, notes), or that a catch-up
 * marked it read. Returns whether the item's record changed (the caller writes it back in the
 * same transaction).
 */
export function applyNotingHold(
	item: Partial<OutboxItem> & { intent: Intent },
	article: StoredArticle,
	tree: FeedTree | undefined,
	/** The changes after it, for a catch-up (apply.ts `asBefore`). */
	later?: readonly LaterChange[]
): boolean {
	const undo = item.seq !== undefined ? item.undo : undefined;
	const inverse =
		undo && item.articleId === article.id && undo.inverse === undefined
			? inverseOf(item.intent, article)
			: undefined;
	const delta = applyToArticle(article, item.intent, tree, later);
	if (!undo) return false;
	if (inverse) {
		undo.inverse = inverse;
		return true;
	}
	if (item.intent.type !== 'catchup' || delta >= 0) return false;
	const marked = (undo.markedRead ??= []);
	if (marked.includes(article.id)) return false;
	marked.push(article.id);
	return true;
}

export function isHeld(item: Pick<OutboxItem, 'heldUntil'>, now: number): boolean {
	return item.heldUntil !== undefined && item.heldUntil > now;
}

const FLAG_PROP = { unread: 'unread', starred: 'marked', published: 'published' } as const;

/** The intent that puts this cached article back as it is now, for the key `intent` changes. */
export function inverseOf(intent: Intent, article: StoredArticle): Intent | undefined {
	switch (intent.type) {
		case 'flag':
			return {
				type: 'flag',
				field: intent.field,
				articleIds: [article.id],
				value: article[FLAG_PROP[intent.field]]
			};
		case 'label':
			return {
				type: 'label',
				articleIds: [article.id],
				labelId: intent.labelId,
				assign: article.labels.some((l) => l.id === intent.labelId)
			};
		case 'note':
			return { type: 'note', articleId: article.id, note: article.note ?? '' };
		default:
			return undefined;
	}
}
