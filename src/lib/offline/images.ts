/**
 * Article images for offline reading, in Cache Storage (`images-v1`), oldest first out.
 *
 * Decision: images are fetched by the page with `mode: 'no-cors'` (feed hosts send no CORS
 * headers) and stored as opaque responses. Chromium counts every opaque response as about 7 MB
 * of quota whatever its size, so the cache is capped by entry count (MAX_IMAGES), not bytes:
 * 100 entries ≈ 700 MB of quota accounting at worst. Serving them needs the worker's fetch handler
 * to answer image requests from this cache (`cachedImage` below), and the app's
 * Content-Security-Policy must allow the fetch (`connect-src`); where it does not, every image is
 * counted as skipped and reading offline shows the text without images.
 */
import { IMAGE_CACHE } from './storage';

export const MAX_IMAGES = 100;

/** Image URLs of an article body (absolute, http/https), in document order. */
export function imageUrls(html: string | undefined, base: string): string[] {
	if (!html) return [];
	const urls = new Set<string>();
	for (const match of html.matchAll(
		/<img\b[^>]*?\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi
	)) {
		const raw = (match[1] ?? match[2] ?? match[3] ?? '').replace(/&amp;/g, '&');
		try {
			const url = new URL(raw, base || undefined);
			if (url.protocol === 'http:' || url.protocol === 'https:') urls.add(url.href);
		} catch {
			// Not a URL: skip.
		}
	}
	return [...urls];
}

export interface ImageCacheResult {
	stored: number;
	skipped: number;
}

/** Fetches and stores images not cached yet; evicts the oldest beyond MAX_IMAGES. */
export async function cacheImages(
	urls: readonly string[],
	signal?: AbortSignal,
	onOne?: (result: ImageCacheResult) => void
): Promise<ImageCacheResult> {
	const result: ImageCacheResult = { stored: 0, skipped: 0 };
	if (typeof caches === 'undefined') return { stored: 0, skipped: urls.length };
	const cache = await caches.open(IMAGE_CACHE);
	for (const url of urls.slice(0, MAX_IMAGES)) {
		signal?.throwIfAborted();
		try {
			if (await cache.match(url)) continue;
			const response = await fetch(url, { mode: 'no-cors', credentials: 'omit', signal });
			await cache.put(url, response);
			result.stored++;
		} catch (error) {
			if (signal?.aborted) throw error;
			result.skipped++;
		}
		onOne?.(result);
	}
	const keys = await cache.keys();
	const over = keys.length - MAX_IMAGES;
	if (over > 0) await Promise.all(keys.slice(0, over).map((k) => cache.delete(k)));
	return result;
}

/** For the worker's fetch handler: a cached image for this request, if any. */
export async function cachedImage(request: Request): Promise<Response | undefined> {
	if (request.destination !== 'image') return undefined;
	const cache = await caches.open(IMAGE_CACHE);
	return cache.match(request.url);
}
