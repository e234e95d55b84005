/**
 * Enclosures (podcast audio, video, attached images) of the offline packs that keep them, in
 * Cache Storage (`media-v1`, one account's: dropped at sign-out and at another account's sign-in,
 * src/lib/db/device.ts). The Cache Storage cache is the only record: what it holds is what is
 * kept, so nothing can disagree with it. See docs/storage.md.
 *
 * Decisions:
 * - Which: the attachments of articles in a pack with "keep enclosures", typed audio/, video/ or
 *   image/, through the one URL rule (`fetchableUrl(…, 'media')`). Kept while their article is kept
 *   and its pack keeps enclosures; pruned at the next sync otherwise.
 * - When: on Wi-Fi only (policy.ts `decideEnclosures`), whatever the images setting: a file is
 *   tens of MB.
 * - How: fetched with CORS first, so the copy can be read and answered by range
 *   (src/service-worker/worker-media.ts, range.ts). A host that sends no CORS headers gets no copy: its
 *   answer would be opaque, and an opaque body's size cannot be read, so neither the size cap nor
 *   the storage budget could hold (a 64 MB file would be kept under a 1 MB cap). It is refused
 *   like a file over the cap (`tooLarge`) and the player streams it from its host. Opaque copies
 *   kept by earlier versions are dropped at the next sync (`pruneMedia`).
 * - Large files are streamed into the cache (`cache.put` reads the body as it arrives), never held
 *   in memory; a file over MAX_MEDIA_FILE_BYTES is refused by its Content-Length, or cut off while
 *   streaming when the host sends none.
 * - A file that failed or was refused is remembered (`media-failures-v1`, one header-only entry
 *   per URL) and not fetched again before its backoff ends (`retryDelay`: 1 h, then 4x each time,
 *   at most a week), so a sync does not download the same refused file every time.
 */
import type { ArticleBase } from '$lib/api';
import { fetchableUrl, imageUrl } from '$lib/content/url';
import { cacheOwnedBy } from '$lib/db/device';
import type { ReaderDatabase } from '$lib/db/open';
import { allStoredArticles } from '$lib/db/later-reads';
import { enclosuresAllowed } from './policy';
import { askWorkerTo, controllingWorker } from './images';
import { answerRange, contentRange } from './range';
import { dropCached } from '$lib/db/quota';
import { MEDIA_CACHE, MEDIA_FAILURES_CACHE } from './storage';

const MB = 1024 * 1024;
/** The largest file kept: an hour of video at a phone's quality, or 3 h of audio at 128 kbps. */
export const MAX_MEDIA_FILE_BYTES = 200 * MB;
/**
 * What an opaque copy counts for in the budget: its size cannot be read. None is kept any more;
 * this covers a copy kept by an earlier version until the next sync drops it.
 */
export const OPAQUE_MEDIA_BYTES = 50 * MB;

const KEPT_TYPES = /^(audio|video|image)\//i;

/**
 * The enclosure URLs of an article that a pack may keep, in the order the server sent them. An
 * image where the Reader plugin signed the article's images: its proxy address, or none (never its
 * host), as the article shows it (content/url.ts `imageUrl`).
 */
export function enclosureUrls(
	article: Pick<ArticleBase, 'attachments' | 'link' | 'signedImages'>
): string[] {
	const urls = new Set<string>();
	for (const attachment of article.attachments ?? []) {
		if (!KEPT_TYPES.test(attachment.contentType)) continue;
		const url =
			/^image\//i.test(attachment.contentType) && article.signedImages
				? imageUrl(attachment.contentUrl, article.link, article.signedImages)
				: fetchableUrl(attachment.contentUrl, 'media', article.link);
		if (url && /^https?:/.test(url)) urls.add(url);
	}
	return [...urls];
}

/** Enclosures of the cached articles held by these packs: what should be kept. */
export async function wantedEnclosures(
	packIds: ReadonlySet<string>,
	db?: ReaderDatabase
): Promise<Set<string>> {
	const wanted = new Set<string>();
	if (packIds.size === 0) return wanted;
	for (const article of await allStoredArticles(db)) {
		if (!article.packs?.some((pack) => packIds.has(pack))) continue;
		for (const url of enclosureUrls(article)) wanted.add(url);
	}
	return wanted;
}

export interface MediaCacheResult {
	stored: number;
	skipped: number;
	/**
	 * Refused for being larger than the cap (MAX_MEDIA_FILE_BYTES), or for a size that cannot be
	 * checked against it (a host without CORS: an opaque answer).
	 */
	tooLarge: number;
}

/** Passes a body on, failing once it grows past the cap (a host that gave no length). */
function capped(
	body: ReadableStream<Uint8Array>,
	cap: number
): { stream: ReadableStream<Uint8Array>; over: () => boolean } {
	let total = 0;
	const stream = body.pipeThrough(
		new TransformStream<Uint8Array, Uint8Array>({
			transform(chunk, controller) {
				total += chunk.byteLength;
				if (total > cap) controller.error(new Error('enclosure larger than the cap'));
				else controller.enqueue(chunk);
			}
		})
	);
	return { stream, over: () => total > cap };
}

/** A refused file's first wait; each further failure waits four times longer, up to a week. */
const RETRY_FIRST_MS = 60 * 60_000;
const RETRY_MAX_MS = 7 * 24 * 60 * 60_000;
const FAILURES_HEADER = 'x-failures';
const RETRY_AT_HEADER = 'x-retry-at';

/** How long to wait before fetching a file again after its `failures`-th failure in a row. */
export function retryDelay(failures: number): number {
	return Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 4 ** Math.max(0, failures - 1));
}

interface Failure {
	failures: number;
	retryAt: number;
}

async function failureOf(failed: Cache, url: string): Promise<Failure | undefined> {
	const record = await failed.match(url);
	if (!record) return undefined;
	const failures = Number(record.headers.get(FAILURES_HEADER));
	const retryAt = Number(record.headers.get(RETRY_AT_HEADER));
	return Number.isSafeInteger(failures) && failures > 0 && Number.isFinite(retryAt)
		? { failures, retryAt }
		: undefined;
}

/** Remembers one more failure of `url` (a record without a body: two headers). */
async function recordFailure(
	failed: Cache,
	url: string,
	before: Failure | undefined
): Promise<void> {
	const failures = (before?.failures ?? 0) + 1;
	const headers = {
		[FAILURES_HEADER]: String(failures),
		[RETRY_AT_HEADER]: String(Date.now() + retryDelay(failures))
	};
	await failed.put(url, new Response(null, { headers }));
}

type Outcome = 'stored' | 'skipped' | 'tooLarge';

/**
 * Fetches one enclosure with CORS. When that fails, a `no-cors` request tells a host without CORS
 * (an opaque answer: refused, its size cannot be checked) from a network error (thrown); it is
 * aborted as soon as it answers, so the file is not downloaded for nothing.
 */
async function fetchEnclosure(url: string, signal?: AbortSignal): Promise<Response | 'opaque'> {
	try {
		return await fetch(url, { mode: 'cors', credentials: 'omit', signal });
	} catch (error) {
		if (signal?.aborted) throw error;
	}
	const probe = new AbortController();
	const stop = (): void => probe.abort();
	signal?.addEventListener('abort', stop, { once: true });
	try {
		const answer = await fetch(url, { mode: 'no-cors', credentials: 'omit', signal: probe.signal });
		await answer.body?.cancel().catch(() => undefined);
		return answer.type === 'opaque' ? 'opaque' : answer;
	} finally {
		probe.abort();
		signal?.removeEventListener('abort', stop);
	}
}

/** Fetches one enclosure into the cache, within the cap; a body cut off half-way leaves nothing. */
async function keepEnclosure(
	cache: Cache,
	url: string,
	account: string | undefined,
	signal: AbortSignal | undefined,
	cap: number
): Promise<Outcome | 'signedOut'> {
	let tooLarge: (() => boolean) | undefined;
	try {
		const response = await fetchEnclosure(url, signal);
		if (!(await cacheOwnedBy(account))) {
			// Signed out (or another account) meanwhile: nothing more is kept.
			if (response !== 'opaque') await response.body?.cancel();
			return 'signedOut';
		}
		if (response === 'opaque') return 'tooLarge';
		if (response.status !== 200 || !response.body) {
			await response.body?.cancel();
			return 'skipped';
		}
		const length = Number(response.headers.get('content-length'));
		if (length > cap) {
			await response.body.cancel();
			return 'tooLarge';
		}
		const limited = length > 0 ? undefined : capped(response.body, cap);
		tooLarge = limited?.over;
		const copy = limited
			? new Response(limited.stream, { status: 200, headers: response.headers })
			: response;
		await cache.put(url, copy);
		return 'stored';
	} catch (error) {
		// A body cut off half-way leaves nothing behind.
		await cache.delete(url).catch(() => false);
		if (signal?.aborted) throw error;
		return tooLarge?.() ? 'tooLarge' : 'skipped';
	}
}

/**
 * Keeps these enclosures that are not kept yet, one at a time (each streamed into the cache).
 * A file that failed before waits for its backoff (counted as skipped). Asks the connection
 * itself (Wi-Fi only), so whoever asks, the rule holds.
 */
export async function cacheEnclosures(
	urls: readonly string[],
	/** The account they were asked for: each is stored only while the cache is still its. */
	account: string | undefined,
	signal?: AbortSignal,
	cap = MAX_MEDIA_FILE_BYTES
): Promise<MediaCacheResult> {
	const result: MediaCacheResult = { stored: 0, skipped: 0, tooLarge: 0 };
	if (typeof caches === 'undefined' || !enclosuresAllowed()) {
		return { ...result, skipped: urls.length };
	}
	const cache = await caches.open(MEDIA_CACHE);
	const failed = await caches.open(MEDIA_FAILURES_CACHE);
	for (const url of urls) {
		signal?.throwIfAborted();
		if (await cache.match(url)) continue;
		const before = await failureOf(failed, url).catch(() => undefined);
		if (before && before.retryAt > Date.now()) {
			result.skipped++;
			continue;
		}
		const outcome = await keepEnclosure(cache, url, account, signal, cap);
		if (outcome === 'signedOut') {
			result.skipped++;
			break;
		}
		result[outcome]++;
		// Remembering is best effort: a full quota must not fail the sync.
		if (outcome === 'stored') await failed.delete(url).catch(() => false);
		else await recordFailure(failed, url, before).catch(() => undefined);
	}
	return result;
}

/**
 * Drops every kept enclosure not in `wanted`, and any opaque copy (kept by an earlier version:
 * its size cannot be known), with the failure records of files no longer wanted; returns how many
 * files went.
 */
export async function pruneMedia(wanted: ReadonlySet<string>): Promise<number> {
	if (typeof caches === 'undefined') return 0;
	if (await caches.has(MEDIA_FAILURES_CACHE)) {
		const failed = await (await caches.open(MEDIA_FAILURES_CACHE)).keys();
		const stale = failed.map((request) => request.url).filter((url) => !wanted.has(url));
		await dropCached(MEDIA_FAILURES_CACHE, stale);
	}
	if (!(await caches.has(MEDIA_CACHE))) return 0;
	const cache = await caches.open(MEDIA_CACHE);
	const drop: string[] = [];
	for (const request of await cache.keys()) {
		if (!wanted.has(request.url) || (await cache.match(request))?.type === 'opaque') {
			drop.push(request.url);
		}
	}
	return dropCached(MEDIA_CACHE, drop);
}

/**
 * The sync's step for enclosures: drops those no pack keeps any more (a pack removed or turned
 * off, an article gone), then keeps what the packs want, by `cache` (the page asks the worker;
 * the worker fetches itself). Returns how many files are wanted.
 */
export async function keepPackEnclosures(
	packIds: ReadonlySet<string>,
	cache: ((urls: string[], signal?: AbortSignal) => Promise<unknown>) | undefined,
	signal?: AbortSignal
): Promise<number> {
	const wanted = await wantedEnclosures(packIds);
	await pruneMedia(wanted);
	if (wanted.size > 0 && cache && enclosuresAllowed()) await cache([...wanted], signal);
	return wanted.size;
}

/**
 * The answer to a request for a kept enclosure, ranges included: media elements ask for
 * `bytes=0-` and seek with ranges. An opaque copy cannot be read, so it is answered whole. The
 * body is sliced from the cached blob, which the browser keeps on disk: no second copy in memory.
 */
export async function answerFromCopy(copy: Response, range: string | null): Promise<Response> {
	if (copy.type === 'opaque' || !range) return copy;
	const blob = await copy.blob();
	const size = blob.size;
	const answer = answerRange(range, size);
	const type = copy.headers.get('content-type') ?? blob.type;
	const headers = new Headers({ 'Accept-Ranges': 'bytes' });
	if (type) headers.set('Content-Type', type);
	if (answer.kind === 'unsatisfiable') {
		headers.set('Content-Range', contentRange(answer, size) ?? '');
		return new Response(null, { status: 416, statusText: 'Range Not Satisfiable', headers });
	}
	if (answer.kind === 'whole') {
		headers.set('Content-Length', String(size));
		return new Response(blob, { status: 200, headers });
	}
	headers.set('Content-Range', contentRange(answer, size) ?? '');
	headers.set('Content-Length', String(answer.end - answer.start + 1));
	return new Response(blob.slice(answer.start, answer.end + 1), {
		status: 206,
		statusText: 'Partial Content',
		headers
	});
}

/** For the worker's fetch handler: the answer from a kept copy, or undefined when none is kept. */
export async function cachedEnclosure(request: Request): Promise<Response | undefined> {
	const cache = await caches.open(MEDIA_CACHE);
	const copy = await cache.match(request.url);
	return copy ? answerFromCopy(copy, request.headers.get('range')) : undefined;
}

export interface CacheMediaMessage {
	type: 'CACHE_MEDIA';
	urls: string[];
	/** The account they were asked for: the worker keeps them only while the cache is its. */
	account: string;
}

/** One file can take minutes on a slow link; a worker stopped mid-way never answers. */
const MEDIA_ANSWER_MS = 10 * 60_000;

/**
 * Asks the controlling service worker to keep these enclosures, one file per message: the
 * worker's fetch may reach feed hosts (its own policy), and a cancel takes effect between files.
 */
export async function cacheEnclosuresViaWorker(
	urls: readonly string[],
	account: string,
	signal?: AbortSignal
): Promise<MediaCacheResult> {
	const worker = await controllingWorker();
	const total: MediaCacheResult = { stored: 0, skipped: 0, tooLarge: 0 };
	if (!worker) return { ...total, skipped: urls.length };
	for (const url of urls) {
		signal?.throwIfAborted();
		const message: CacheMediaMessage = { type: 'CACHE_MEDIA', urls: [url], account };
		const result = await askWorkerTo<MediaCacheResult>(worker, message, MEDIA_ANSWER_MS).catch(
			() => ({ stored: 0, skipped: 1, tooLarge: 0 })
		);
		total.stored += result.stored;
		total.skipped += result.skipped;
		total.tooLarge += result.tooLarge;
	}
	return total;
}
