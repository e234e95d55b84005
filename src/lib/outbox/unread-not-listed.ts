/**
 * What a catch-up made from the open list spares (CatchupIntent `spare`), apart from outbox.ts:
 * only a catch-up needs it, and outbox.ts is part of the first screen.
 */
import { readStores } from '$lib/db/stores';
import { inCatchupScope } from './apply';
import type { CatchupIntent } from './intent';
import { changesNotShown } from './outbox';

/**
 * The articles of a catch-up's scope the reader marked unread (queued, held, being queued, or
 * confirmed since `readSince`, when their list was read) that the list does not show (`listed`):
 * it was asked before that change reached the server, so they never saw it there. A catch-up of
 * that list spares them (CatchupIntent `spare`): WebKit chaos seed 4700120, where a list asked
 * before the reader's mark unread landed left the article out and a catch-up sent as one
 * catchupFeed marked it read again. An article the cache does not have counts as in the scope.
 */
export async function unreadNotListed(
	scope: CatchupIntent,
	listed: ReadonlySet<number>,
	readSince: number | undefined
): Promise<number[]> {
	try {
		const { changes } = await changesNotShown(readSince, false);
		const unread = new Map<number, boolean>();
		for (const { intent } of changes) {
			if (intent.type !== 'flag' || intent.field !== 'unread') continue;
			for (const id of intent.articleIds) unread.set(id, intent.value);
		}
		const ids = [...unread].filter(([id, value]) => value && !listed.has(id)).map(([id]) => id);
		if (ids.length === 0) return [];
		// The feed or category itself: a search's matches are what the list showed.
		const wide: CatchupIntent = { ...scope, search: undefined, seenIds: undefined };
		return await readStores(['articles', 'tree'], async (stores) => {
			const tree = (await stores.tree.get('current'))?.tree;
			const spared: number[] = [];
			for (const id of ids) {
				const article = await stores.articles.get(id);
				if (!article || inCatchupScope(wide, article, tree)) spared.push(id);
			}
			return spared;
		});
	} catch {
		// Unreadable: the list is taken as the reader's whole view, as before.
		return [];
	}
}
