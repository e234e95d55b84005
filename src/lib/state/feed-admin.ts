/**
 * What the reader does to their subscriptions: update a feed now, unsubscribe, subscribe. Unlike
 * article changes these are not queued in the outbox (they need the server's answer to mean
 * anything), so each one calls the server directly and then reads again what it changed: the
 * headlines, the counters or the feed tree. Screens call these and only show the outcome.
 */
import type { SubscribeResult } from '$lib/api';
import type { FeedHealthFacts } from '$lib/format/feed-health';
import { findFeed } from '$lib/tree/walk';
import { headlines } from './headlines.svelte';
import { session } from './session.svelte';
import { toasts } from './toasts.svelte';
import { m, whenAllMessages } from '$lib/i18n/m';
import { errorMessage, treeState } from './tree.svelte';

/** Asks tt-rss to fetch the feed now, then shows what arrived. False (and a toast) on failure. */
export async function updateFeedNow(feedId: number, title: string): Promise<boolean> {
	try {
		// updateFeed fetches the feed; getHeadlines' force_update would fetch it a second time.
		await (await session.api()).updateFeed(feedId);
		await headlines.refresh();
		await treeState.refreshCounters();
		await whenAllMessages();
		toasts.show(m.toast_feed_updated({ title }));
		return true;
	} catch (error) {
		toasts.show(errorMessage(error), 'error');
		return false;
	}
}

/**
 * Unsubscribes, then `leave`s the feed's screen (it no longer exists) before the tree is read
 * again without it. False (and a toast) when the server refused.
 */
export async function unsubscribeFrom(
	feedId: number,
	title: string,
	leave: () => Promise<void>
): Promise<boolean> {
	try {
		await (await session.api()).unsubscribeFeed(feedId);
		await whenAllMessages();
		toasts.show(m.toast_unsubscribed({ title }));
		await leave();
		await treeState.load();
		return true;
	} catch (error) {
		toasts.show(errorMessage(error), 'error');
		return false;
	}
}

/** Subscribes; a feed that was added appears in the tree. Throws what the server refused. */
export async function subscribeTo(feedUrl: string, categoryId: number): Promise<SubscribeResult> {
	const result = await (await session.api()).subscribeToFeed({ feedUrl, categoryId });
	if (result.status === 'added') await treeState.load();
	return result;
}

/**
 * What is known of a feed's updates: the tree's last error, and on servers of level 23 the time of
 * the server's last attempt and its interval (getFeeds; asked only for a feed in error when its
 * menu opens, and for any feed when its settings sheet asks for `always`). The newest article the
 * reader has of the feed says when it last brought news.
 */
export async function feedHealth(
	feedId: number,
	{ always = false }: { always?: boolean } = {}
): Promise<FeedHealthFacts> {
	const error = findFeed(treeState.tree, feedId)?.error;
	if (!error && !always) return {};
	const newestArticle = headlines.items
		.filter((article) => article.feedId === feedId)
		.reduce((newest, article) => Math.max(newest, article.updated), 0);
	const facts: FeedHealthFacts = { error, newestArticle };
	if (error && !session.capabilities?.feedErrors) return facts;
	try {
		const feed = (await (await session.api()).getFeeds({ catId: -4 })).find((f) => f.id === feedId);
		if (!feed) return facts;
		return {
			...facts,
			error: feed.lastError || error,
			lastTried: feed.lastUpdated,
			updateInterval: feed.updateInterval
		};
	} catch {
		return facts; // offline or refused: what the tree said is still true
	}
}
