/**
 * The one URL rule for everything the server sends that the app loads or links: article bodies
 * (through the sanitizer), the article link, enclosures and flavor images. Kept apart from the
 * sanitizer so the headline list can use it without loading DOMPurify.
 */

const DATA_IMAGE = /^data:image\/(?:png|gif|jpeg|jpg|webp|avif)[;,]/i;

/** The article's link as a base for its relative URLs, when it is http(s). */
export function usableBase(baseUrl: string | undefined): URL | undefined {
	if (!baseUrl) return undefined;
	try {
		const url = new URL(baseUrl);
		return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
	} catch {
		return undefined;
	}
}

/**
 * An image served by the Reader plugin's same-origin proxy (package/init.php): tt-rss's
 * `public.php?op=pluginhandler&plugin=reader&pmethod=image&uid=…&url=…&sig=…`. The server signed it
 * for an article of the reader's; it answers an image or a refusal and changes nothing, so the app
 * may load it from its own origin and keep it offline as a readable response (its true size).
 */
export function isImageProxyUrl(url: URL): boolean {
	const q = url.searchParams;
	return (
		url.pathname.endsWith('/public.php') &&
		q.get('op') === 'pluginhandler' &&
		q.get('plugin') === 'reader' &&
		q.get('pmethod') === 'image' &&
		!!q.get('url') &&
		!!q.get('sig')
	);
}

/** What a URL is used for: links navigate; images, media and frames load by themselves. */
export type UrlKind = 'link' | 'image' | 'media' | 'frame';

/** The app's own origin, where one exists (pages and workers; not plain Node). */
function appOrigin(): string | undefined {
	return typeof location === 'undefined' ? undefined : location.origin;
}

/**
 * Resolves `raw` against `base` and returns it if its scheme is allowed for `kind`.
 * The URL parser already strips tabs/newlines and case, so `java&#x09;script:` and `JaVaScRiPt:`
 * arrive here as `javascript:` and fail the allowlist.
 */
export function checkUrl(raw: string, kind: UrlKind, base: URL | undefined): string | undefined {
	const value = raw.trim();
	if (value === '') return undefined;
	if (kind === 'image' && DATA_IMAGE.test(value)) return value;
	// Without a usable base a relative URL would point at the app's own origin: drop it.
	let url: URL;
	try {
		url = new URL(value, base);
	} catch {
		return undefined;
	}
	const scheme = url.protocol;
	if (scheme === 'http:' || scheme === 'https:') {
		// Something that loads by itself from the app's origin is a request to tt-rss with the
		// reader's cookies; a link only goes there when the reader follows it. One exception: an
		// image through the Reader plugin's signed proxy, which reads nothing of the session.
		if (
			kind !== 'link' &&
			url.origin === appOrigin() &&
			!(kind === 'image' && isImageProxyUrl(url))
		)
			return undefined;
		return url.href;
	}
	if (kind === 'link' && (scheme === 'mailto:' || scheme === 'tel:')) return url.href;
	return undefined;
}

/**
 * The sanitizer's URL rule for URLs the server sends outside article bodies (article link,
 * comments link, enclosures, flavor image): the URL to use, or undefined to leave it out.
 * `baseUrl` (the article's link) resolves relative URLs; without it they are dropped.
 */
export function safeUrl(
	raw: string | null | undefined,
	kind: UrlKind,
	baseUrl?: string
): string | undefined {
	return raw ? checkUrl(raw, kind, usableBase(baseUrl)) : undefined;
}

/**
 * A URL the app fetches by itself to keep (the worker's image and enclosure caches): the one URL
 * rule above, and http(s) only (a `data:` image needs no copy).
 */
export function fetchableUrl(
	raw: unknown,
	kind: 'image' | 'media',
	baseUrl?: string
): string | undefined {
	const url = typeof raw === 'string' ? safeUrl(raw, kind, baseUrl) : undefined;
	return url && /^https?:/.test(url) ? url : undefined;
}
