/**
 * Memory and cache move the unread counters by one rule: from the tree and counters the real server
 * sent (tests/fixtures/recorded), any sequence of intents leaves the page's counters (what
 * state/tree.svelte.ts shows, moved as state/actions.ts moves them) equal to the cached ones (what
 * outbox.ts writes to IndexedDB through apply.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCounters, parseFeedTree } from '$lib/api/parse';
import { recordedContent } from '$support/fake-fetch';
import { treeFromNodes } from '$lib/api/tree';
import { SPECIAL_FEED, type ArticleBase, type Counters, type Label } from '$lib/api';
import { afterCatchup, afterRead, countsFrom, type UnreadCounts } from '$lib/counters/counts';
import { adjustCounters, applyCatchupToCounters, applyToArticle, catchupCovers } from './apply';
import type { Intent, CatchupIntent } from './intent';
import { headline } from '$support/factories';

const NOW = 1_790_000_000_000;
const HOUR = 3600;
const tree = treeFromNodes(parseFeedTree(recordedContent('api15', 'getFeedTree')));
const recordedCounters = (): Counters => parseCounters(recordedContent('api15', 'getCounters'));

const FEEDS = [1, 2, 3, 4, 5, 6];
const CATEGORIES = [0, 1, 2, 3, 4];
const SPECIALS = [
	SPECIAL_FEED.all,
	SPECIAL_FEED.fresh,
	SPECIAL_FEED.starred,
	SPECIAL_FEED.published
];
const LABELS: Label[] = tree.labels.map((l) => ({
	id: l.id,
	caption: l.title,
	fgColor: '',
	bgColor: ''
}));

type FlagIntent = Extract<Intent, { type: 'flag' }>;

const articleArb = (id: number): fc.Arbitrary<ArticleBase> =>
	fc
		.record({
			feedId: fc.constantFrom(...FEEDS),
			unread: fc.boolean(),
			marked: fc.boolean(),
			published: fc.boolean(),
			hoursOld: fc.constantFrom(1, 30, 200, 800),
			score: fc.constantFrom(0, -5),
			labels: fc.subarray(LABELS)
		})
		.map(({ hoursOld, ...rest }) =>
			headline(id, { ...rest, updated: NOW / 1000 - hoursOld * HOUR })
		);

const flagArb: fc.Arbitrary<FlagIntent> = fc.record({
	type: fc.constant('flag' as const),
	field: fc.constantFrom('unread' as const, 'starred' as const, 'published' as const),
	articleIds: fc.subarray([1, 2, 3, 4, 5, 6, 7, 8], { minLength: 1 }),
	value: fc.boolean()
});

const catchupArb: fc.Arbitrary<CatchupIntent> = fc
	.record({
		target: fc.oneof(
			fc.record({ isCat: fc.constant(false), feedId: fc.constantFrom(...FEEDS, ...SPECIALS) }),
			fc.record({ isCat: fc.constant(false), feedId: fc.constantFrom(...LABELS.map((l) => l.id)) }),
			fc.record({ isCat: fc.constant(true), feedId: fc.constantFrom(...CATEGORIES) })
		),
		mode: fc.constantFrom('all' as const, '1day' as const, '1week' as const, '2week' as const)
	})
	.map(({ target, mode }) => ({ type: 'catchup', ...target, mode, at: NOW }));

/**
 * The page: state/actions.ts patches the rows it names and moves treeState's counts
 * (tree.svelte.ts `adjust` per row, then `caughtUp` after a catch-up of a feed id).
 */
function inMemory(
	counts: UnreadCounts,
	articles: ArticleBase[],
	intent: FlagIntent | CatchupIntent
): UnreadCounts {
	const read = (article: ArticleBase, delta: number): void => {
		counts = afterRead(counts, tree, article, delta, NOW);
	};
	if (intent.type === 'flag') {
		const prop = ({ unread: 'unread', starred: 'marked', published: 'published' } as const)[
			intent.field
		];
		for (const article of articles) {
			if (!intent.articleIds.includes(article.id) || article[prop] === intent.value) continue;
			if (intent.field === 'unread') read(article, intent.value ? 1 : -1);
		}
		return counts;
	}
	// The rows of the list caught up (the loaded ones are the cached ones here).
	for (const article of articles) {
		if (article.unread && catchupCovers(intent, article, tree)) read(article, -1);
	}
	return intent.mode === 'all' && typeof intent.feedId === 'number'
		? afterCatchup(counts, tree, intent)
		: counts;
}

/** IndexedDB: outbox.ts applies the intent to the cached articles and counters. */
function inCache(
	counters: Counters,
	articles: ArticleBase[],
	intent: FlagIntent | CatchupIntent
): void {
	for (const article of articles) {
		if (intent.type === 'flag' && !intent.articleIds.includes(article.id)) continue;
		const delta = applyToArticle(article, intent, tree);
		adjustCounters(counters, tree, article, delta, NOW);
	}
	if (intent.type === 'catchup') applyCatchupToCounters(counters, tree, intent);
}

describe('memory and cache counters', () => {
	it('agree after any sequence of intents, from the real server’s tree and counters', () => {
		fc.assert(
			fc.property(
				fc.tuple(...[1, 2, 3, 4, 5, 6, 7, 8].map(articleArb)),
				fc.array(fc.oneof(flagArb, catchupArb), { minLength: 1, maxLength: 8 }),
				(articles, intents) => {
					const cached = recordedCounters();
					const cachedArticles = articles.map((a) => ({ ...a, labels: [...a.labels] }));
					let memory = countsFrom(recordedCounters());
					for (const intent of intents) {
						// Memory sees the articles as the cache has them before the intent.
						memory = inMemory(
							memory,
							cachedArticles.map((a) => ({ ...a })),
							intent
						);
						inCache(cached, cachedArticles, intent);
						expect(memory).toEqual(countsFrom(cached));
					}
				}
			),
			{ numRuns: 300 }
		);
	});
});
