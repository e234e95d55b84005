/** The pure rule of an intent's way in (intent-effect.ts): what enqueueing an intent changes. */
import { describe, expect, it } from 'vitest';
import { parseCounters, parseFeedTree } from '$lib/api/parse';
import { recordedContent } from '$support/fake-fetch';
import { treeFromNodes } from '$lib/api/tree';
import type { OutboxItem, StoredArticle, StoredTree } from '$lib/db/schema';
import { splitIntent } from './split';
import type { Intent } from './intent';
import { headline } from '$support/factories';
import { intentEffect, type EffectSnapshot } from './intent-effect';

const NOW = 1_790_000_000_000;
const ACCOUNT = 'reader@http://tt.example/api/';

function storedTree(): StoredTree {
	return {
		tree: treeFromNodes(parseFeedTree(recordedContent('api15', 'getFeedTree'))),
		counters: parseCounters(recordedContent('api15', 'getCounters')),
		fetchedAt: 1
	};
}

function article(id: number, patch: Partial<StoredArticle> = {}): StoredArticle {
	return {
		...headline(id, { feedId: 1, updated: NOW / 1000 - 3600 }),
		comments: '',
		hasContent: false,
		storedAt: 1,
		offline: false,
		...patch
	};
}

const feedUnread = (tree: StoredTree | undefined, id: number): number | undefined =>
	tree?.counters?.feeds.find((c) => c.id === id)?.unread;

describe('intentEffect', () => {
	it('marks an article read: one item, the article changed, its feed one fewer, the snapshot left as it was', () => {
		const intent: Intent = { type: 'flag', field: 'unread', articleIds: [7], value: false };
		const drafts = splitIntent(intent, NOW);
		const cached = article(7, { unread: true });
		const tree = storedTree();
		const before = feedUnread(tree, 1) as number;
		const snapshot: EffectSnapshot = { cache: { tree, targets: [[cached]] }, queued: [[]] };
		const frozen = structuredClone(snapshot);

		const effect = intentEffect(drafts, snapshot, { now: NOW, account: ACCOUNT });

		expect(effect.items).toEqual([
			{
				key: 'flag:unread:7',
				intent,
				createdAt: NOW,
				attempts: 0,
				articleId: 7,
				account: ACCOUNT
			}
		]);
		expect(effect.replaced).toEqual([]);
		// The reader changed it: no rule acts on it from now on.
		expect(effect.articles).toEqual([{ ...cached, unread: false, readerChangedAt: NOW }]);
		expect(feedUnread(effect.tree, 1)).toBe(before - 1);
		expect(snapshot).toEqual(frozen);
	});

	it('replaces the older queued item of the same key and account only; a hold keeps it and the inverse for undo', () => {
		const intent: Intent = { type: 'flag', field: 'starred', articleIds: [7], value: true };
		const drafts = splitIntent(intent, NOW);
		const mine: OutboxItem = {
			seq: 3,
			key: 'flag:starred:7',
			intent: { type: 'flag', field: 'starred', articleIds: [7], value: false },
			createdAt: 1,
			attempts: 0,
			articleId: 7,
			account: ACCOUNT
		};
		const others: OutboxItem = { ...mine, seq: 4, account: 'someone@http://b.example/api/' };
		const snapshot: EffectSnapshot = {
			cache: { tree: storedTree(), targets: [[article(7, { marked: false })]] },
			queued: [[mine, others]]
		};

		const effect = intentEffect(drafts, snapshot, {
			now: NOW,
			account: ACCOUNT,
			hold: { id: 'undo-1', until: NOW + 5_000 }
		});

		expect(effect.replaced).toEqual([3]);
		expect(effect.items[0]).toMatchObject({ heldUntil: NOW + 5_000, undoId: 'undo-1' });
		expect(effect.items[0]?.undo).toEqual({
			replaced: [mine],
			inverse: { type: 'flag', field: 'starred', articleIds: [7], value: false }
		});
		expect(effect.articles[0]?.marked).toBe(true);
		// Starring moves no unread counter.
		expect(effect.tree).toBeUndefined();
	});

	it('a catch-up marks its scope read, zeroes its counter, and writes only the articles it changed', () => {
		const intent: Intent = { type: 'catchup', feedId: 1, isCat: false, mode: 'all', at: NOW };
		const drafts = splitIntent(intent, NOW);
		const unread = article(1, { unread: true });
		const read = article(2, { unread: false });
		const elsewhere = article(3, { unread: true, feedId: 2 });
		const snapshot: EffectSnapshot = {
			cache: { tree: storedTree(), targets: [[unread, read, elsewhere]] },
			queued: [[]]
		};

		const effect = intentEffect(drafts, snapshot, {
			now: NOW,
			account: ACCOUNT,
			hold: { id: 'undo-2', until: NOW + 5_000 }
		});

		expect(effect.articles).toEqual([{ ...unread, unread: false, readerChangedAt: NOW }]);
		expect(feedUnread(effect.tree, 1)).toBe(0);
		expect(effect.items[0]?.key).toMatch(/^catchup:/);
		expect(effect.items[0]?.undo?.markedRead).toEqual([1]);
		// What the zeroing took away: the counter as the article it marked read had left it.
		expect(effect.items[0]?.undo?.counters).toContainEqual({
			list: 'feeds',
			id: 1,
			unread: (feedUnread(storedTree(), 1) as number) - 1
		});
	});

	it('without the cache (another account owns it, or it is full), only the outbox changes', () => {
		const intent: Intent = { type: 'flag', field: 'unread', articleIds: [7, 8], value: false };
		const effect = intentEffect(
			splitIntent(intent, NOW),
			{ queued: [[], []] },
			{
				now: NOW,
				account: undefined
			}
		);
		expect(effect.items.map((i) => i.key)).toEqual(['flag:unread:7', 'flag:unread:8']);
		expect(effect.items[0]).not.toHaveProperty('account');
		expect(effect.articles).toEqual([]);
		expect(effect.tree).toBeUndefined();
	});

	it('a rule’s change leaves out the articles the reader changed, and marks none (issue 55)', () => {
		const intent: Intent = { type: 'flag', field: 'unread', articleIds: [7, 8], value: false };
		const kept = article(7, { unread: true, readerChangedAt: NOW - 1_000 });
		const fresh = article(8, { unread: true });
		const snapshot: EffectSnapshot = {
			cache: { tree: storedTree(), targets: [[kept], [fresh]] },
			queued: [[], []],
			unanswered: [undefined, undefined]
		};
		const context = { now: NOW, account: ACCOUNT };

		const byRule = intentEffect(splitIntent(intent, NOW), snapshot, { ...context, by: 'rule' });
		expect(byRule.items.map((i) => i.key)).toEqual(['flag:unread:8']);
		expect(byRule.articles).toEqual([{ ...fresh, unread: false }]);
		expect(feedUnread(byRule.tree, 1)).toBe((feedUnread(storedTree(), 1) as number) - 1);

		// The reader's own change reaches both, and marks both.
		const byReader = intentEffect(splitIntent(intent, NOW), snapshot, context);
		expect(byReader.items.map((i) => i.key)).toEqual(['flag:unread:7', 'flag:unread:8']);
		expect(byReader.articles.map((a) => a.readerChangedAt)).toEqual([NOW, NOW]);
	});
});
