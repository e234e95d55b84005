import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Attachment } from '$lib/api';
import { CACHE_OWNER } from '$lib/db/keys';
import { deleteStored, putStored } from '$lib/db/kv';
import { openReaderDb, resetReaderDbForTests } from '$lib/db/open';
import { answerFromCopy, cacheEnclosures, enclosureUrls, pruneMedia, retryDelay } from './media';
import { decideEnclosures } from './policy';
import { MEDIA_CACHE, MEDIA_FAILURES_CACHE } from './storage';

const attachment = (contentUrl: string, contentType: string): Attachment => ({
	id: 1,
	contentUrl,
	contentType,
	title: '',
	duration: undefined,
	width: undefined,
	height: undefined,
	postId: undefined
});

describe('enclosureUrls', () => {
	it('keeps audio, video and image attachments through the one URL rule', () => {
		const urls = enclosureUrls({
			link: 'http://feeds.test/podcast/ep1',
			attachments: [
				attachment('http://feeds.test/media/tone.wav', 'audio/wav'),
				attachment('clip.webm', 'video/webm'),
				attachment('http://feeds.test/media/cover.png', 'image/png'),
				attachment('http://feeds.test/doc.pdf', 'application/pdf'),
				attachment('javascript:alert(1)', 'audio/mpeg'),
				attachment('http://feeds.test/media/tone.wav', 'audio/wav')
			]
		});
		expect(urls).toEqual([
			'http://feeds.test/media/tone.wav',
			'http://feeds.test/podcast/clip.webm',
			'http://feeds.test/media/cover.png'
		]);
	});
});

describe('enclosureUrls where the Reader plugin signs the article’s images (issue 55)', () => {
	it('keeps an image through its proxy address or not at all; audio and video as before', () => {
		const proxied =
			'http://localhost/tt-rss/public.php?op=pluginhandler&plugin=reader&pmethod=image&uid=2&url=u&sig=s';
		const urls = enclosureUrls({
			link: 'http://feeds.test/podcast/ep1',
			signedImages: { 'http://images.test/cover.png': proxied },
			attachments: [
				attachment('http://cdn.test/ep1.mp3', 'audio/mpeg'),
				attachment('http://images.test/cover.png', 'image/png'),
				attachment('http://images.test/other.jpg', 'image/jpeg')
			]
		});
		expect(urls).toEqual(['http://cdn.test/ep1.mp3', proxied]);
	});
});

describe('answerFromCopy', () => {
	const body = new Uint8Array(1000).map((_, i) => i % 256);
	const copy = (): Response =>
		new Response(body, { headers: { 'content-type': 'audio/wav', 'content-length': '1000' } });

	it('answers a range with 206, the bytes asked for and Content-Range', async () => {
		const answer = await answerFromCopy(copy(), 'bytes=100-199');
		expect(answer.status).toBe(206);
		expect(answer.headers.get('content-range')).toBe('bytes 100-199/1000');
		expect(answer.headers.get('content-length')).toBe('100');
		expect(answer.headers.get('content-type')).toBe('audio/wav');
		expect(answer.headers.get('accept-ranges')).toBe('bytes');
		expect(new Uint8Array(await answer.arrayBuffer())).toEqual(body.slice(100, 200));
	});

	it('answers the open-ended first request of a media element with the whole file as 206', async () => {
		const answer = await answerFromCopy(copy(), 'bytes=0-');
		expect(answer.status).toBe(206);
		expect(answer.headers.get('content-range')).toBe('bytes 0-999/1000');
		expect((await answer.arrayBuffer()).byteLength).toBe(1000);
	});

	it('refuses a range past the end with 416 and the size', async () => {
		const answer = await answerFromCopy(copy(), 'bytes=5000-');
		expect(answer.status).toBe(416);
		expect(answer.headers.get('content-range')).toBe('bytes */1000');
	});

	it('answers without a range, or an ignored one, with the whole file', async () => {
		const plain = copy();
		expect(await answerFromCopy(plain, null)).toBe(plain);
		const ignored = await answerFromCopy(copy(), 'bytes=0-1,5-6');
		expect(ignored.status).toBe(200);
		expect((await ignored.arrayBuffer()).byteLength).toBe(1000);
	});
});

describe('decideEnclosures', () => {
	it('downloads on Wi-Fi or where the browser does not say, never on mobile data or Data Saver', () => {
		expect(decideEnclosures({}).allowed).toBe(true);
		expect(decideEnclosures({ type: 'wifi' }).allowed).toBe(true);
		expect(decideEnclosures({ type: 'cellular' }).allowed).toBe(false);
		expect(decideEnclosures({ type: 'wifi', saveData: true }).allowed).toBe(false);
		expect(decideEnclosures({ metered: true }).allowed).toBe(false);
		expect(decideEnclosures({ effectiveType: '2g' }).allowed).toBe(false);
	});
});

describe('cacheEnclosures', () => {
	/** Marks a response opaque, as a `no-cors` answer is. */
	const opaque = (response: Response): Response =>
		Object.defineProperty(response, 'type', { value: 'opaque' });
	/** A Cache Storage cache in memory; `put` reads the body to its end, as Cache Storage does. */
	const fakeCacheOf = (store: Map<string, Response>) => ({
		match: (url: string | Request) =>
			Promise.resolve(store.get(typeof url === 'string' ? url : url.url)),
		put: async (url: string, response: Response) => {
			// A failing stream fails the put.
			const bytes = response.body ? await response.arrayBuffer() : null;
			const copy = new Response(bytes, { headers: response.headers });
			store.set(url, response.type === 'opaque' ? opaque(copy) : copy);
		},
		delete: (url: string | Request) =>
			Promise.resolve(store.delete(typeof url === 'string' ? url : url.url)),
		keys: () => Promise.resolve([...store.keys()].map((url) => new Request(url)))
	});
	const store = new Map<string, Response>();
	const failures = new Map<string, Response>();
	const caches = new Map([
		[MEDIA_CACHE, fakeCacheOf(store)],
		[MEDIA_FAILURES_CACHE, fakeCacheOf(failures)]
	]);

	/** The account the files are fetched for, and the cache's owner. */
	const account = 'reader@http://tt.example/api/';

	beforeEach(async () => {
		store.clear();
		globalThis.indexedDB = new IDBFactory();
		resetReaderDbForTests();
		await putStored(CACHE_OWNER, account);
		failures.clear();
		vi.stubGlobal('caches', {
			open: (name: string) => {
				expect(caches.has(name)).toBe(true);
				return Promise.resolve(caches.get(name));
			},
			has: () => Promise.resolve(true)
		});
	});

	afterEach(() => {
		vi.unstubAllGlobals();
		vi.useRealTimers();
	});

	/** A streamed body without Content-Length, `chunks` of 100 bytes. */
	const streamed = (chunks: number): Response =>
		new Response(
			new ReadableStream<Uint8Array>({
				start(controller) {
					for (let i = 0; i < chunks; i++) controller.enqueue(new Uint8Array(100));
					controller.close();
				}
			}),
			{ headers: { 'content-type': 'audio/mpeg' } }
		);

	it('keeps files within the cap, refuses larger ones by length or while streaming', async () => {
		const replies: Record<string, () => Response> = {
			'http://feeds.test/a.mp3': () =>
				new Response(new Uint8Array(300), { headers: { 'content-length': '300' } }),
			'http://feeds.test/big.mp3': () =>
				new Response(new Uint8Array(10), { headers: { 'content-length': '5000' } }),
			'http://feeds.test/stream.mp3': () => streamed(3),
			'http://feeds.test/endless.mp3': () => streamed(20),
			'http://feeds.test/gone.mp3': () => new Response('', { status: 404 })
		};
		vi.stubGlobal(
			'fetch',
			vi.fn((url: string) => Promise.resolve(replies[url]!()))
		);
		const result = await cacheEnclosures(Object.keys(replies), account, undefined, 1000);
		expect(result).toEqual({ stored: 2, skipped: 1, tooLarge: 2 });
		expect([...store.keys()].sort()).toEqual([
			'http://feeds.test/a.mp3',
			'http://feeds.test/stream.mp3'
		]);
		// Kept already: not fetched again.
		vi.mocked(fetch).mockClear();
		await cacheEnclosures(['http://feeds.test/a.mp3'], account, undefined, 1000);
		expect(fetch).not.toHaveBeenCalled();
	});

	it('stores nothing once the cache is no longer the account it was fetched for', async () => {
		const db = await openReaderDb();
		vi.stubGlobal(
			'fetch',
			vi.fn(async (url: string) => {
				// The reader signs out while the first file is on its way.
				if (url.endsWith('a.mp3')) await deleteStored(CACHE_OWNER, db);
				return new Response(new Uint8Array(10), { headers: { 'content-length': '10' } });
			})
		);
		await cacheEnclosures(['http://feeds.test/a.mp3', 'http://feeds.test/b.mp3'], account);
		// Another account's cache takes none of them either.
		await putStored(CACHE_OWNER, 'someone@http://tt.example/api/', db);
		await cacheEnclosures(['http://feeds.test/c.mp3'], account);
		expect([...store.keys()]).toEqual([]);
		expect(vi.mocked(fetch).mock.calls.map(([url]) => url)).toEqual([
			'http://feeds.test/a.mp3',
			'http://feeds.test/c.mp3'
		]);
	});

	it('fetches nothing off Wi-Fi', async () => {
		vi.stubGlobal('navigator', { connection: { type: 'cellular' } });
		vi.stubGlobal('fetch', vi.fn());
		expect(await cacheEnclosures(['http://feeds.test/a.mp3'], account)).toEqual({
			stored: 0,
			skipped: 1,
			tooLarge: 0
		});
		expect(fetch).not.toHaveBeenCalled();
	});

	it('prunes what no pack wants any more, opaque copies of earlier versions, stale failure records', async () => {
		store.set('http://feeds.test/a.mp3', new Response('a'));
		store.set('http://feeds.test/b.mp3', new Response('b'));
		store.set('http://feeds.test/o.mp3', opaque(new Response('o')));
		failures.set('http://feeds.test/gone.mp3', new Response(null));
		failures.set('http://feeds.test/c.mp3', new Response(null));
		const wanted = [
			'http://feeds.test/b.mp3',
			'http://feeds.test/o.mp3',
			'http://feeds.test/c.mp3'
		];
		expect(await pruneMedia(new Set(wanted))).toBe(2);
		expect([...store.keys()]).toEqual(['http://feeds.test/b.mp3']);
		expect([...failures.keys()]).toEqual(['http://feeds.test/c.mp3']);
	});

	it('keeps nothing from a host without CORS, whatever its size (cap 1 MB, file 64 MB)', async () => {
		let written = 0;
		let probe: AbortSignal | undefined;
		const opaqueBody = (): ReadableStream<Uint8Array> => {
			let sent = 0;
			return new ReadableStream({
				pull(c) {
					if (sent >= 64) return c.close();
					sent++;
					written += 1024 * 1024;
					c.enqueue(new Uint8Array(1024 * 1024));
				}
			});
		};
		vi.stubGlobal(
			'fetch',
			vi.fn((_url: string, init: RequestInit) => {
				if (init.mode === 'cors') {
					return Promise.reject(new TypeError('Failed to fetch (no CORS headers)'));
				}
				probe = init.signal ?? undefined;
				return Promise.resolve({
					type: 'opaque',
					status: 0,
					headers: new Headers(),
					body: opaqueBody()
				});
			})
		);
		const result = await cacheEnclosures(
			['https://evil.example/huge.mp3'],
			account,
			undefined,
			1024 * 1024
		);
		expect({ result, kept: [...store.keys()] }).toEqual({
			result: { stored: 0, skipped: 0, tooLarge: 1 },
			kept: []
		});
		// The probe that told "no CORS" from "no network" was stopped: not downloaded for nothing.
		expect(probe?.aborted).toBe(true);
		expect(written).toBeLessThanOrEqual(2 * 1024 * 1024);
	});

	it('remembers a failure: not fetched again before its backoff ends, then again; cleared once kept', async () => {
		vi.useFakeTimers({ toFake: ['Date'] });
		vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
		let answer = (): Response => new Response('', { status: 404 });
		vi.stubGlobal(
			'fetch',
			vi.fn(() => Promise.resolve(answer()))
		);
		const url = 'http://feeds.test/missing.mp3';
		const sync = () => cacheEnclosures([url], account, undefined, 1000);
		expect(await sync()).toEqual({ stored: 0, skipped: 1, tooLarge: 0 });
		expect(fetch).toHaveBeenCalledTimes(1);
		// The next syncs within the hour fetch nothing.
		vi.advanceTimersByTime(retryDelay(1) - 1000);
		expect(await sync()).toEqual({ stored: 0, skipped: 1, tooLarge: 0 });
		expect(await sync()).toEqual({ stored: 0, skipped: 1, tooLarge: 0 });
		expect(fetch).toHaveBeenCalledTimes(1);
		// After it: tried again, fails again, and now waits four times longer.
		vi.advanceTimersByTime(1000);
		await sync();
		expect(fetch).toHaveBeenCalledTimes(2);
		vi.advanceTimersByTime(retryDelay(2) - 1000);
		await sync();
		expect(fetch).toHaveBeenCalledTimes(2);
		vi.advanceTimersByTime(1000);
		answer = () => new Response(new Uint8Array(10), { headers: { 'content-length': '10' } });
		expect(await sync()).toEqual({ stored: 1, skipped: 0, tooLarge: 0 });
		expect(failures.has(url)).toBe(false);
	});

	it('backs off 1 h, then four times longer each time, at most a week', () => {
		const hour = 60 * 60_000;
		expect([1, 2, 3, 4, 5, 6, 50].map(retryDelay)).toEqual([
			hour,
			4 * hour,
			16 * hour,
			64 * hour,
			168 * hour,
			168 * hour,
			168 * hour
		]);
	});
});
