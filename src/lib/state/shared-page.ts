/** What another app shared to this one (Web Share Target: `?title=&text=&url=`). */
export interface SharedPage {
	title: string;
	url: string;
	text: string;
}

/**
 * Reads a share-target query. Many apps put the link in `text` rather than `url`, so the first
 * http(s) link found there is used when `url` is empty, and removed from the text.
 */
export function sharedPageFrom(params: URLSearchParams): SharedPage {
	const title = (params.get('title') ?? '').trim();
	let url = (params.get('url') ?? '').trim();
	let text = (params.get('text') ?? '').trim();
	// A feed link (`feed://…`, `web+feed:…`) is the address it stands for.
	if (/^(?:web\+feed|feed):/i.test(url)) url = feedAddressFrom(url);
	if (!isHttpUrl(url)) {
		const found = /https?:\/\/[^\s<>"]+/.exec(text)?.[0] ?? '';
		url = isHttpUrl(found) ? found : '';
		if (url) text = text.replace(found, '').trim();
	}
	return { title: title || url, url, text };
}

function isHttpUrl(value: string): boolean {
	try {
		const url = new URL(value);
		return url.protocol === 'http:' || url.protocol === 'https:';
	} catch {
		return false;
	}
}

/**
 * The feed address a link names, for the subscribe screen: a `web+feed:` link (the app's protocol
 * handler: `web+feed:https://example.org/feed.xml`) or a `feed:` one (`feed://example.org/rss`,
 * `feed:https://…`) as the http(s) address it stands for; anything else as it is (trimmed).
 */
export function feedAddressFrom(value: string): string {
	let address = value.trim();
	for (let i = 0; i < 2; i++) {
		const scheme = /^(?:web\+feed|feed):/i.exec(address)?.[0];
		if (!scheme) break;
		const rest = address.slice(scheme.length);
		// `feed://host/path` is `http://host/path`; `feed:https://…` carries its own scheme.
		address = rest.startsWith('//') ? `http:${rest}` : rest;
	}
	return address;
}

/**
 * Whether a shared address looks like a feed rather than a page (its path ends in a feed's file
 * type, or names `feed`, `rss` or `atom` as a segment; a feed scheme): the share screen then offers
 * to subscribe first. A guess: the other way is always there.
 */
export function looksLikeFeed(value: string): boolean {
	if (/^(?:web\+feed|feed):/i.test(value.trim())) return true;
	if (!isHttpUrl(value)) return false;
	const { pathname, search } = new URL(value);
	return (
		/\.(?:rss|atom|rdf|xml)$/i.test(pathname) ||
		/(?:^|\/)(?:feeds?|rss|atom)(?:\.\w+)?\/?$/i.test(pathname) ||
		/[?&](?:feed|format)=(?:rss|atom)/i.test(search)
	);
}
