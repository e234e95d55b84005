/**
 * Article images for offline reading, in Cache Storage (`images-v1`), oldest first out.
 *
 * Decision: the service worker fetches images with `mode: 'no-cors'` (feed hosts send no CORS
 * headers) and stores them as opaque responses; the page only asks it to (`cacheImagesViaWorker`),
 * because the page's policy keeps `connect-src` to its own origin while the worker's own policy
 * (deploy/csp.js, workerCspDirectives) may reach feed hosts. Chromium counts every opaque response
 * as about 7 MB of quota whatever its size, so the cache is capped by entry count (MAX_IMAGES), not
 * bytes: 100 entries ≈ 700 MB of quota accounting at worst. The worker answers image requests from
 * this cache only for URLs it holds (src/service-worker/worker-images.ts), so browsing online never
 * depends on it. Where tt-rss runs the Reader plugin, article bodies name their images through its
 * signed same-origin proxy instead (api/params.ts IMAGE_PROXY_FLAG, content/url.ts
 * `isImageProxyUrl`): the same `no-cors` fetch then gets a readable response, kept and counted at
 * its true size (budget.ts). Whatever asks, nothing is fetched when the reader's images setting and the
 * connection say no (policy.ts `imagesAllowed`): this is the one place images are fetched.
 */
import { checkImageUrl, fetchableUrl, usableBase, type SignedImages } from '$lib/content/url';
import { cacheOwnedBy } from '$lib/db/device';
import { imagesAllowed } from './policy';
import { IMAGE_CACHE } from './storage';

export const MAX_IMAGES = 100;
/** Images fetched at once (a browser opens 6 connections to one host). */
export const IMAGE_PARALLEL = 6;

/**
 * Image URLs of an article body (absolute, http/https, by `fetchableUrl`), in document order. Where
 * the Reader plugin signs the account's images (`signed`, content/url.ts `signedImagesOf`), only
 * their proxy addresses: the worker never asks an image's own host for one the plugin did not sign.
 */
export function imageUrls(html: string | undefined, base: string, signed?: SignedImages): string[] {
	if (!html) return [];
	const urls = new Set<string>();
	for (const match of html.matchAll(
		/<img\b[^>]*?\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi
	)) {
		const raw = (match[1] ?? match[2] ?? match[3] ?? '').replace(/&amp;/g, '&');
		const url =
			signed === undefined
				? fetchableUrl(raw, 'image', base)
				: checkImageUrl(raw, usableBase(base), signed);
		if (url && /^https?:/.test(url)) urls.add(url);
	}
	return [...urls];
}

/** What the worker keeps of an article's images: its body's and its flavor image (as imageUrls). */
export function articleImageUrls(
	article: { content?: string | undefined; link: string; flavorImage?: string | undefined },
	signed: SignedImages
): string[] {
	const urls = imageUrls(article.content, article.link, signed);
	const flavor = article.flavorImage
		? signed === undefined
			? fetchableUrl(article.flavorImage, 'image', article.link)
			: checkImageUrl(article.flavorImage, usableBase(article.link), signed)
		: undefined;
	if (flavor && /^https?:/.test(flavor) && !urls.includes(flavor)) urls.push(flavor);
	return urls;
}

export interface ImageCacheResult {
	stored: number;
	skipped: number;
}

/**
 * Fetches and stores images not cached yet; evicts the oldest beyond MAX_IMAGES. `account` is the
 * one they were asked for: each is stored only while the cache is still that account's.
 */
export async function cacheImages(
	urls: readonly string[],
	account: string | undefined,
	signal?: AbortSignal,
	onOne?: (result: ImageCacheResult) => void
): Promise<ImageCacheResult> {
	const result: ImageCacheResult = { stored: 0, skipped: 0 };
	if (typeof caches === 'undefined' || !(await imagesAllowed())) {
		return { stored: 0, skipped: urls.length };
	}
	const cache = await caches.open(IMAGE_CACHE);
	const queue = urls.slice(0, MAX_IMAGES);
	let stop = false;
	const one = async (url: string): Promise<void> => {
		try {
			if (await cache.match(url)) return;
			const response = await fetch(url, { mode: 'no-cors', credentials: 'omit', signal });
			// A readable answer (the plugin's proxy) that is a refusal or an error is not an image.
			if (response.type !== 'opaque' && !response.ok) {
				result.skipped++;
				await response.body?.cancel();
				onOne?.(result);
				return;
			}
			if (stop || !(await cacheOwnedBy(account))) {
				// Signed out (or another account) meanwhile: nothing more is kept.
				stop = true;
				result.skipped++;
				await response.body?.cancel();
				return;
			}
			await cache.put(url, response);
			result.stored++;
		} catch (error) {
			if (signal?.aborted) throw error;
			result.skipped++;
		}
		onOne?.(result);
	};
	// A few at a time (IMAGE_PARALLEL): a feed host answers them side by side, and the text,
	// stored before any image is asked for, never waits for them.
	const lane = async (): Promise<void> => {
		for (let url = queue.shift(); url !== undefined && !stop; url = queue.shift()) {
			signal?.throwIfAborted();
			await one(url);
		}
	};
	await Promise.all(Array.from({ length: Math.min(IMAGE_PARALLEL, queue.length) }, lane));
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

/** Asks the controlling service worker to keep these images; chunked so a cancel takes effect. */
export async function cacheImagesViaWorker(
	urls: readonly string[],
	account: string,
	signal?: AbortSignal,
	onOne?: (result: ImageCacheResult) => void
): Promise<ImageCacheResult> {
	const worker = await controllingWorker();
	const wanted = urls.slice(0, MAX_IMAGES);
	if (!worker) return { stored: 0, skipped: wanted.length };
	const total: ImageCacheResult = { stored: 0, skipped: 0 };
	for (let i = 0; i < wanted.length; i += IMAGE_CHUNK) {
		signal?.throwIfAborted();
		const chunk = wanted.slice(i, i + IMAGE_CHUNK);
		const result = await askWorker(worker, chunk, account).catch(() => ({
			stored: 0,
			skipped: chunk.length
		}));
		total.stored += result.stored;
		total.skipped += result.skipped;
		onOne?.(total);
	}
	return total;
}

const IMAGE_CHUNK = 10;
/** A worker that was stopped mid-way never answers: count the chunk as skipped, go on. */
const WORKER_ANSWER_MS = 60_000;

/**
 * The URLs of a message that asks the worker to keep copies (CACHE_IMAGES, CACHE_MEDIA), each
 * through `fetchableUrl`: those that pass, and how many did not (the answer counts them as
 * skipped). Undefined for another message. Any page of the origin can post to the worker, which
 * fetches with its own policy: it applies the one URL rule itself rather than trust the page.
 */
export function askedUrls(
	data: unknown,
	type: 'CACHE_IMAGES' | 'CACHE_MEDIA',
	kind: 'image' | 'media'
): { urls: string[]; refused: number; account: string } | undefined {
	if (typeof data !== 'object' || data === null) return undefined;
	const asked = data as { type?: unknown; urls?: unknown; account?: unknown };
	// Without the account they were asked for, nothing could check the cache is still its.
	if (asked.type !== type || !Array.isArray(asked.urls) || typeof asked.account !== 'string')
		return undefined;
	const urls: string[] = [];
	for (const raw of asked.urls as unknown[]) {
		const url = fetchableUrl(raw, kind);
		if (url !== undefined && !urls.includes(url)) urls.push(url);
	}
	return { urls, refused: asked.urls.length - urls.length, account: asked.account };
}

export interface CacheImagesMessage {
	type: 'CACHE_IMAGES';
	urls: string[];
	/** The account they were asked for: the worker keeps them only while the cache is its. */
	account: string;
}

function askWorker(
	worker: ServiceWorker,
	urls: string[],
	account: string
): Promise<ImageCacheResult> {
	const message: CacheImagesMessage = { type: 'CACHE_IMAGES', urls, account };
	return askWorkerTo<ImageCacheResult>(worker, message, WORKER_ANSWER_MS);
}

/** How long a sync waits for a worker still installing (a first visit) to take control. */
const CONTROL_WAIT_MS = 10_000;

/**
 * The worker controlling this page. On a first visit the sync can start before the worker has
 * installed and claimed the page: wait (briefly) for that, so the first sync's images and files
 * are kept too — a later sync does not fetch those articles' bodies again.
 */
export async function controllingWorker(waitMs = CONTROL_WAIT_MS): Promise<ServiceWorker | null> {
	const container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
	if (!container) return null;
	if (container.controller) return container.controller;
	const registration = await container.getRegistration().catch(() => undefined);
	if (!registration) return null;
	// An active worker that left this page alone (a hard reload) will not take it now.
	const settled = !registration.installing && !registration.waiting;
	if (settled && registration.active?.state === 'activated') return null;
	return new Promise((resolve) => {
		const done = (): void => {
			clearTimeout(timer);
			container.removeEventListener('controllerchange', done);
			resolve(container.controller);
		};
		const timer = setTimeout(done, waitMs);
		container.addEventListener('controllerchange', done);
	});
}

/** Posts a message to the worker with a reply port; rejects when no answer comes in time. */
export function askWorkerTo<T>(
	worker: ServiceWorker,
	message: unknown,
	timeoutMs: number
): Promise<T> {
	return new Promise((resolve, reject) => {
		const channel = new MessageChannel();
		const timer = setTimeout(() => reject(new Error('no answer')), timeoutMs);
		channel.port1.onmessage = (event: MessageEvent<T>) => {
			clearTimeout(timer);
			resolve(event.data);
		};
		worker.postMessage(message, [channel.port2]);
	});
}
