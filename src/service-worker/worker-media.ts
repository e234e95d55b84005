/**
 * Enclosures of the offline packs that keep them (src/lib/offline/media.ts). Pages ask the worker
 * to fetch and keep them (CACHE_MEDIA, one file per message), because the worker's own policy may
 * reach feed hosts; the worker then answers requests for exactly those URLs from the cache, with
 * Range support (206 Partial Content, 416), so a podcast plays and seeks offline. Every other
 * request goes to the network untouched.
 */
import { askedUrls } from '$lib/offline/images';
import { cacheEnclosures, cachedEnclosure } from '$lib/offline/media';
import { MEDIA_CACHE } from '$lib/offline/storage';

/** URLs in the cache, known synchronously: respondWith must be decided inside the event. */
const kept = new Set<string>();

async function reloadKept(): Promise<void> {
	const keys = await (await caches.open(MEDIA_CACHE)).keys();
	kept.clear();
	for (const request of keys) kept.add(request.url);
}

/** Call once at worker start. */
export function startMediaCache(): void {
	void reloadKept().catch(() => undefined);
}

export function handleMediaFetch(event: FetchEvent): boolean {
	const { request } = event;
	if (request.method !== 'GET' || !kept.has(request.url)) return false;
	// A copy dropped since (eviction, a pruned pack, sign-out): the network, as if never kept.
	event.respondWith(cachedEnclosure(request).then((answer) => answer ?? fetch(request)));
	return true;
}

export function handleMediaMessage(event: ExtendableMessageEvent): void {
	const asked = askedUrls(event.data, 'CACHE_MEDIA', 'media');
	if (!asked) return;
	const { urls, refused, account } = asked;
	event.waitUntil(
		(async () => {
			const result = await cacheEnclosures(urls, account);
			await reloadKept();
			event.ports[0]?.postMessage({ ...result, skipped: result.skipped + refused });
		})().catch(() => {
			event.ports[0]?.postMessage({ stored: 0, skipped: urls.length + refused, tooLarge: 0 });
		})
	);
}

/** For the worker's own sync (sync.ts): keep, then know what is kept. */
export async function cacheEnclosuresHere(
	urls: string[],
	account: string | undefined,
	signal?: AbortSignal
): Promise<void> {
	await cacheEnclosures(urls, account, signal);
	await reloadKept();
}
