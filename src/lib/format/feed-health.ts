/**
 * A feed's update health in plain words. tt-rss stores the last fetch error as the library's own
 * text: "HTTP Code: 404 Not Found" (2021 servers, cURL), "HTTP/1.1 404 Not Found" or "cURL error 6:
 * Could not resolve host: …" (current servers, Guzzle), or a parser's message. The tree's warning,
 * the feed's menu and the server check-up all say it through this one function.
 */
import { m } from '$lib/i18n/m';
import { longDate } from './format';

/** The server's error text in words a reader understands; the server's own text is kept apart. */
export function plainFeedError(raw: string): string {
	// The server's text is stored per feed and can be long; nothing here needs more than its start.
	// Addresses in it say nothing of the failure (and a feed's own `….xml` is no parser error).
	const text = raw.slice(0, 500).replace(/\bhttps?:\/\/[^\s`'"]*/gi, '');
	const status = (/HTTP(?:\/\d(?:\.\d)?| Code:)\s*(\d{3})\b/i.exec(text) ??
		// Guzzle (current servers): "Client error: `GET …` resulted in a `404 Not Found` response".
		/resulted in an? `(\d{3})\b/i.exec(text))?.[1];
	if (status) {
		const code = Number(status);
		if (code === 404 || code === 410) return m.feed_error_gone({ code });
		if (code === 401 || code === 403) return m.feed_error_forbidden({ code });
		if (code === 429) return m.feed_error_rate_limited();
		if (code >= 500) return m.feed_error_site_error({ code });
		return m.feed_error_http({ code });
	}
	if (/resolve host|failed to resolve|name or service not known|getaddrinfo/i.test(text))
		return m.feed_error_dns();
	if (/extended validation|loopback/i.test(text)) return m.feed_error_private();
	if (/timed? ?out/i.test(text)) return m.feed_error_timeout();
	if (/ssl|certificate|tls/i.test(text)) return m.feed_error_certificate();
	if (/connection refused|failed to connect|couldn'?t connect/i.test(text))
		return m.feed_error_refused();
	if (/no content/i.test(text)) return m.feed_error_empty();
	if (/pars|xml|feed type|not a (valid )?feed/i.test(text)) return m.feed_error_not_feed();
	return m.feed_error_other();
}

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
