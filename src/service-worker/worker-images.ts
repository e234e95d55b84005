/**
 * Article images kept for offline reading (see src/lib/offline/images.ts). Pages ask the worker to
 * fetch and keep them (CACHE_IMAGES); the worker then answers requests for exactly those URLs from
 * the cache. Every other image goes to the network untouched, so browsing online never depends on
 * this cache or on the worker's policy.
 */
import { askedUrls, cacheImages } from '$lib/offline/images';
import { IMAGE_CACHE } from '$lib/offline/storage';

/** URLs in the cache, known synchronously: respondWith must be decided inside the event. */
const kept = new Set<string>();

async function reloadKept(): Promise<void> {
	const keys = await (await caches.open(IMAGE_CACHE)).keys();
	kept.clear();
	for (const request of keys) kept.add(request.url);
}

/** Call once at worker start. */
export function startImageCache(): void {
	void reloadKept().catch(() => undefined);
}

export function handleImageFetch(event: FetchEvent): boolean {
	const { request } = event;
	if (request.method !== 'GET' || request.destination !== 'image' || !kept.has(request.url)) {
		return false;
	}
	event.respondWith(
		caches
			.open(IMAGE_CACHE)
			.then((cache) => cache.match(request.url))
			.then((hit) => hit ?? fetch(request))
	);
	return true;
}

export function handleImageMessage(event: ExtendableMessageEvent): void {
	const asked = askedUrls(event.data, 'CACHE_IMAGES', 'image');
	if (!asked) return;
	const { urls, refused, account } = asked;
	event.waitUntil(
		(async () => {
			const result = await cacheImages(urls, account);
			await reloadKept();
			event.ports[0]?.postMessage({ ...result, skipped: result.skipped + refused });
		})().catch(() => {
			event.ports[0]?.postMessage({ stored: 0, skipped: urls.length + refused });
		})
	);
}
