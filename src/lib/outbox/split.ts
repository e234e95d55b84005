/**
 * Pure rules: how an intent splits into outbox items, one per article and field (their coalescing
 * key), catch-ups and shares unique barriers. Only a write runs them (enqueue.ts, intent-effect.ts, the
 * actions), so they are apart from apply.ts, which the first screen's reads use.
 */
import type { ArticleBase } from '$lib/api';
import type { Intent } from './intent';

export interface ItemDraft {
	key: string;
	intent: Intent;
	articleId?: number;
}

/** For a star, publish or label change: whether the article has that star, flag or label now. */
export function hasNow(intent: Intent, article: ArticleBase): boolean | undefined {
	if (intent.type === 'label') return article.labels.some((l) => l.id === intent.labelId);
	if (intent.type !== 'flag' || intent.field === 'unread') return undefined;
	return intent.field === 'starred' ? article.marked : article.published;
}

let uniqueCounter = 0;
/**
 * This module copy's own name: a catch-up's or share's key must be unique across pages, workers
 * and starts, not only within one (two starts each queueing a change left in the write-ahead
 * journal, or two tabs in the same millisecond, would otherwise make the same key, and the second
 * would replace the first: a catch-up or a share lost; the model test found it).
 */
const origin = Math.random().toString(36).slice(2, 10);

/** Every catch-up's outbox key starts so (and no other's): the outbox finds them by key range. */
export const CATCHUP_KEY_PREFIX = 'catchup:';

/** Every key that starts with `prefix`, as an IndexedDB range. */
export function keyPrefixRange(prefix: string): IDBKeyRange {
	return IDBKeyRange.bound(prefix, `${prefix}\uffff`);
}

/** The keys of every queued catch-up (`splitIntent` names them so). */
export function catchupKeyRange(): IDBKeyRange {
	return keyPrefixRange(CATCHUP_KEY_PREFIX);
}

/** The start of every key of a flag's items (`flag:unread:` and the article's id). */
export function flagKeyPrefix(field: Extract<Intent, { type: 'flag' }>['field']): string {
	return `flag:${field}:`;
}

/** The key of an article's read flag: what a catch-up changes of it. */
export function unreadKey(id: number): string {
	return `${flagKeyPrefix('unread')}${id}`;
}

/** The outbox key of an article intent's change to one article (what coalesces). */
export function itemKey(
	intent: Extract<Intent, { type: 'flag' | 'label' | 'note' }>,
	id: number
): string {
	switch (intent.type) {
		case 'flag':
			return `${flagKeyPrefix(intent.field)}${id}`;
		case 'label':
			return `label:${id}:${intent.labelId}`;
		case 'note':
			return `note:${id}`;
	}
}

/** One item per article and field (coalescing key); catch-ups and shares are unique barriers. */
export function splitIntent(intent: Intent, now: number): ItemDraft[] {
	switch (intent.type) {
		case 'flag':
			return unique(intent.articleIds).map((id) => ({
				key: itemKey(intent, id),
				articleId: id,
				intent: { type: 'flag', field: intent.field, articleIds: [id], value: intent.value }
			}));
		case 'label':
			return unique(intent.articleIds).map((id) => ({
				key: itemKey(intent, id),
				articleId: id,
				intent: { type: 'label', articleIds: [id], labelId: intent.labelId, assign: intent.assign }
			}));
		case 'note':
			return [{ key: itemKey(intent, intent.articleId), articleId: intent.articleId, intent }];
		case 'catchup':
			return [
				{
					key: `${CATCHUP_KEY_PREFIX}${now}:${origin}:${uniqueCounter++}`,
					intent: { ...intent, at: intent.at ?? now }
				}
			];
		case 'share':
			return [{ key: `share:${now}:${origin}:${uniqueCounter++}`, intent }];
		case 'setting':
			// One queued change per setting: a later change of it replaces the earlier one.
			return [{ key: `setting:${intent.key}`, intent }];
	}
}

function unique(ids: readonly number[]): number[] {
	return [...new Set(ids.filter((id) => Number.isInteger(id)))];
}
