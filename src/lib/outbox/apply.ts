/**
 * Pure rules: how an intent changes a cached article and the cached counters. Used when an intent
 * is submitted and when fresh server data is stored while changes are still pending (so the cache
 * never shows the server's older state for them), and by the first screen's reads. How an intent
 * splits into outbox items is split.ts's (only a write needs it).
 */
import {
	isLabelFeedId,
	SPECIAL_CATEGORY,
	LABELS_CATEGORY,
	SPECIAL_FEED,
	type ArticleBase,
	type Counters,
	type FeedTree,
	type Label
} from '$lib/api';
import { afterCatchup, afterRead, countsFrom, writeCounts } from '$lib/counters/counts';
import { feedsInCategory } from '$lib/tree/walk';
import { articleChange, withinCatchup } from './effect';
import type { Intent, CatchupIntent } from './intent';

/** Whether the cached article lies in the catch-up's feed, category or special feed. */
export function inCatchupScope(
	intent: CatchupIntent,
	article: ArticleBase,
	tree: FeedTree | undefined
): boolean {
	// A search cannot be evaluated here: only the matching rows the reader had loaded.
	if (intent.search) return intent.seenIds?.includes(article.id) ?? false;
	const feedId = typeof intent.feedId === 'number' ? intent.feedId : Number(intent.feedId);
	if (!Number.isFinite(feedId)) return false; // tag feeds: the cache cannot tell
	if (intent.isCat) {
		// The special and labels categories: unclear scope.
		if (feedId === SPECIAL_CATEGORY || feedId === LABELS_CATEGORY) return false;
		return feedsInCategory(tree, feedId)?.has(article.feedId ?? NaN) ?? false;
	}
	if (feedId > 0) return article.feedId === feedId;
	if (feedId === SPECIAL_FEED.all || feedId === SPECIAL_FEED.fresh) return true; // fresh: approximated
	if (feedId === SPECIAL_FEED.starred) return article.marked;
	if (feedId === SPECIAL_FEED.published) return article.published;
	if (isLabelFeedId(feedId)) return article.labels.some((l) => l.id === feedId);
	return false;
}

/** Whether a catch-up covers this article, as far as the cache can tell. */
export function catchupCovers(
	intent: CatchupIntent,
	article: ArticleBase,
	tree: FeedTree | undefined
): boolean {
	return withinCatchup(intent, article) && inCatchupScope(intent, article, tree);
}

/** The caption and colours of a label, from the stored tree. */
function labelFromTree(tree: FeedTree | undefined, labelId: number): Label | undefined {
	const known = tree?.labels.find((l) => l.id === labelId);
	if (!known) return undefined;
	return {
		id: labelId,
		caption: known.title,
		fgColor: known.fgColor ?? '',
		bgColor: known.bgColor ?? ''
	};
}

/** A change after a catch-up, with what the article had before it (OutboxItem `was`). */
export interface LaterChange {
	intent: Intent;
	was?: boolean;
}

/**
 * The article as a catch-up found it, when it comes from a server answer that may already show
 * changes confirmed after the catch-up (`later`, oldest first): each star, publish or label that
 * a later change sets is taken back to what it was before that change (its `was`; unknown: as
 * the answer shows it). Starred after a catch-up of Starred: the answer shows the star, but the
 * catch-up did not cover the article.
 */
export function asBefore<T extends ArticleBase>(article: T, later: readonly LaterChange[]): T {
	let copy: T | undefined;
	const seen = new Set<string>();
	for (const { intent, was } of later) {
		if (intent.type !== 'flag' && intent.type !== 'label') continue;
		if (intent.type === 'flag' && intent.field === 'unread') continue;
		if (!intent.articleIds.includes(article.id)) continue;
		const key = intent.type === 'flag' ? intent.field : `label:${intent.labelId}`;
		if (seen.has(key)) continue;
		seen.add(key);
		if (was === undefined) continue;
		copy ??= { ...article };
		if (intent.type === 'label') {
			const others = copy.labels.filter((l) => l.id !== intent.labelId);
			copy.labels = was
				? [...others, { id: intent.labelId, caption: '', fgColor: '', bgColor: '' }]
				: others;
		} else if (intent.field === 'starred') copy.marked = was;
		else copy.published = was;
	}
	return copy ?? article;
}

/**
 * For each change of a list an answer may not show (oldest first), when it is a catch-up: the
 * changes after it that the answer may show already (`asBefore`'s `later`): those the server
 * confirmed, not those still queued (never in an answer). Undefined for the others.
 */
export function laterThanCatchups(
	changes: readonly (LaterChange & { confirmed?: true })[]
): (readonly LaterChange[] | undefined)[] {
	return changes.map((change, i) =>
		change.intent.type === 'catchup' ? changes.slice(i + 1).filter((c) => c.confirmed) : undefined
	);
}

/**
 * Whether applying the intent to an article (`applyToArticle`) or naming it (describe.ts) reads the
 * stored tree: a label's caption and colours, a catch-up's scope or its feed's title. A flag or a
 * note does not, so the reads made for them skip the tree (on a big account, reading its record is
 * the costliest part of a tap).
 */
export function needsTree(intent: Intent): boolean {
	return intent.type === 'label' || intent.type === 'catchup';
}

/**
 * Applies an intent to a cached article; returns the unread change (-1, 0, +1) for the counters.
 * `later`: for a catch-up re-applied to a server answer, the changes made after it (`asBefore`).
 */
export function applyToArticle(
	article: ArticleBase,
	intent: Intent,
	tree: FeedTree | undefined,
	later?: readonly LaterChange[]
): number {
	const wasUnread = article.unread;
	switch (intent.type) {
		case 'flag':
		case 'note':
		case 'label':
			Object.assign(
				article,
				articleChange(intent, article, (id) => labelFromTree(tree, id))
			);
			break;
		case 'catchup':
			if (catchupCovers(intent, later ? asBefore(article, later) : article, tree)) {
				article.unread = false;
			}
			break;
		case 'share':
		case 'setting':
			return 0;
	}
	return Number(article.unread) - Number(wasUnread);
}

/**
 * Moves cached counters by `delta` unread for one article, by the one counter model
 * (counters/counts.ts `afterRead`, as the page's memory moves them).
 */
export function adjustCounters(
	counters: Counters | undefined,
	tree: FeedTree | undefined,
	article: Pick<ArticleBase, 'feedId' | 'updated' | 'score'>,
	delta: number,
	now = Date.now()
): void {
	if (!counters || article.feedId === null || delta === 0) return;
	writeCounts(counters, afterRead(countsFrom(counters), tree, article, delta, now));
}

/**
 * A catch-up zeroes the cached counters it covers, unread articles the cache never saw included
 * (counters/counts.ts `afterCatchup`, as the page's memory does).
 */
export function applyCatchupToCounters(
	counters: Counters | undefined,
	tree: FeedTree | undefined,
	intent: CatchupIntent
): void {
	if (!counters) return;
	writeCounts(counters, afterCatchup(countsFrom(counters), tree, intent));
}
