/**
 * The one URL rule for everything the server sends that the app loads or links: article bodies
 * (through the sanitizer), the article link, enclosures and flavor images. Kept apart from the
 * sanitizer so the headline list can use it without loading DOMPurify.
 */

import { isPluginMethodUrl } from '$lib/api/plugin-url';

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
	return isPluginMethodUrl(url, 'image');
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
 * How an article's images may be loaded: undefined where the Reader plugin does not sign the
 * account's images (each from its own host, as on any web page); else the addresses it signed for
 * the article (Article `signedImages`; empty when it signed none or its hook did not see the row),
 * and then nothing else: an image the plugin did not sign is not shown rather than asked of its
 * host, which would tell a tracker the reader's address.
 */
export type SignedImages = Readonly<Record<string, string>> | undefined;

const NONE_SIGNED: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The SignedImages of an article: its own map, else none where the account's images go through
 * the plugin (`proxyOn`, learned from earlier replies: TtrssClient `imageProxy`).
 */
export function signedImagesOf(
	article: { signedImages?: Readonly<Record<string, string>> | undefined },
	proxyOn: boolean | undefined
): SignedImages {
	return article.signedImages ?? (proxyOn ? NONE_SIGNED : undefined);
}

/** One of the plugin's own proxy addresses: its shape, and the server gave it (or it is ours). */
function isSignedAddress(value: string, signed: Readonly<Record<string, string>>): boolean {
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		return false;
	}
	return (
		isImageProxyUrl(url) && (url.origin === appOrigin() || Object.values(signed).includes(url.href))
	);
}

/**
 * `checkUrl` for an image of an article (body `src`, a srcset candidate, a poster, an enclosure,
 * the flavor image) under `signed` (SignedImages): where the plugin signs images, the proxy address
 * the server gave for it, the address itself when it already is one, an inline `data:` image, or
 * undefined — never the image's own host.
 */
export function checkImageUrl(
	raw: string,
	base: URL | undefined,
	signed: SignedImages
): string | undefined {
	const url = checkUrl(raw, 'image', base);
	if (signed === undefined || url === undefined || url.startsWith('data:')) return url;
	const proxied = signed[raw.trim()] ?? signed[url];
	if (proxied !== undefined) {
		const checked = checkUrl(proxied, 'image', undefined);
		return checked !== undefined && isSignedAddress(checked, signed) ? checked : undefined;
	}
	return isSignedAddress(url, signed) ? url : undefined;
}

/** `safeUrl` for an article's image under `signed` (see checkImageUrl). */
export function imageUrl(
	raw: string | null | undefined,
	baseUrl: string | undefined,
	signed: SignedImages
): string | undefined {
	return raw ? checkImageUrl(raw, usableBase(baseUrl), signed) : undefined;
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
