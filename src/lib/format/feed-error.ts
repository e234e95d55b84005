/**
 * A feed's last fetch error in plain words. tt-rss stores it as the library's own text: "HTTP Code:
 * 404 Not Found" (2021 servers, cURL), "HTTP/1.1 404 Not Found" or "cURL error 6: Could not resolve
 * host: …" (current servers, Guzzle), or a parser's message. The tree's warning, the feed's menu
 * (feed-health.ts) and the server check-up all say it through this one function; it is apart from
 * the menu's health lines because the tree's warning is on the first screen.
 */
import { m } from '$lib/i18n/m';

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
