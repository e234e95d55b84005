/**
 * A feed's update health in plain words, as the feed's menu and its settings sheet say it (their
 * words, `feed_health_`, are the later module's: both load with it). The failure itself in plain
 * words is feed-error.ts's `plainFeedError`, shared with the tree's warning and the check-up.
 */
import { m } from '$lib/i18n/m';
import { plainFeedError } from './feed-error';
import { longDate } from './format';

export interface FeedHealthFacts {
	/** The server's last error text; empty or missing when the last update worked. */
	error?: string;
	/**
	 * Unix seconds of the server's last attempt (getFeeds `last_updated`: tt-rss sets it on failures
	 * too, and the API has no time of the last success); 0 or missing: unknown.
	 */
	lastTried?: number;
	/** Unix seconds of the newest article the reader has of this feed: when it last brought news. */
	newestArticle?: number;
	/** Minutes between updates (getFeeds `update_interval`, level 23); 0: the server's default. */
	updateInterval?: number;
}

/** The sentences the feed's menu shows; empty when there is nothing wrong to say. */
export function feedHealthLines(facts: FeedHealthFacts): string[] {
	if (!facts.error) return [];
	const lines = [m.feed_health_fails({ why: plainFeedError(facts.error) })];
	if (facts.newestArticle && facts.newestArticle > 0)
		lines.push(m.feed_health_newest({ date: longDate(facts.newestArticle) }));
	if (facts.lastTried && facts.lastTried > 0)
		lines.push(m.feed_health_last_tried({ date: longDate(facts.lastTried) }));
	if (facts.updateInterval && facts.updateInterval > 0)
		lines.push(m.feed_health_interval({ minutes: facts.updateInterval }));
	lines.push(m.feed_health_server_said({ words: serverWords(facts.error) }));
	return lines;
}

/**
 * The feed settings sheet's health: the failure's lines when it fails, else when the server last
 * updated it (or that the device does not know, offline or on a server that does not say).
 */
export function feedHealthSummary(facts: FeedHealthFacts): string[] {
	if (facts.error) return feedHealthLines(facts);
	if (facts.lastTried && facts.lastTried > 0)
		return [m.feed_health_ok({ date: longDate(facts.lastTried) })];
	return [m.feed_health_unknown()];
}

/**
 * The server's own error text, short enough to show: current servers store the HTTP library's
 * message with literal `\x0A`s and the start of the site's error page after it.
 */
export function serverWords(raw: string): string {
	const words = raw
		.slice(0, 1_000)
		.replace(/(?:\\x0A|\s)+/g, ' ')
		.trim();
	return words.length > 160 ? `${words.slice(0, 159)}…` : words;
}
