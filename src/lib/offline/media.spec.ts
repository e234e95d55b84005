import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Attachment } from '$lib/api';
import { CACHE_OWNER_KEY } from '$lib/db/keys';
import { openReaderDb, resetReaderDbForTests } from '$lib/db/open';
import { answerFromCopy, cacheEnclosures, enclosureUrls, pruneMedia } from './media';
import { decideEnclosures } from './policy';
import { MEDIA_CACHE } from './storage';

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
	const store = new Map<string, Response>();
	const fakeCache = {
		match: (url: string) => Promise.resolve(store.get(url)),
		put: async (url: string, response: Response) => {
			// Like Cache Storage: the body is read to its end (a failing stream fails the put).
			const bytes = await response.arrayBuffer();
			store.set(url, new Response(bytes, { headers: response.headers }));
		},
		delete: (url: string | Request) =>
			Promise.resolve(store.delete(typeof url === 'string' ? url : url.url)),
		keys: () => Promise.resolve([...store.keys()].map((url) => new Request(url)))
	};

	/** The account the files are fetched for, and the cache's owner. */
	const account = 'reader@http://tt.example/api/';

	beforeEach(async () => {
		store.clear();
		globalThis.indexedDB = new IDBFactory();
		resetReaderDbForTests();
		await (await openReaderDb()).put('settings', account, CACHE_OWNER_KEY);
		vi.stubGlobal('caches', {
			open: (name: string) => {
				expect(name).toBe(MEDIA_CACHE);
				return Promise.resolve(fakeCache);
			},
			has: () => Promise.resolve(true)
		});
	});

	afterEach(() => {
		vi.unstubAllGlobals();
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
				if (url.endsWith('a.mp3')) await db.delete('settings', CACHE_OWNER_KEY);
				return new Response(new Uint8Array(10), { headers: { 'content-length': '10' } });
			})
		);
		await cacheEnclosures(['http://feeds.test/a.mp3', 'http://feeds.test/b.mp3'], account);
		// Another account's cache takes none of them either.
		await db.put('settings', 'someone@http://tt.example/api/', CACHE_OWNER_KEY);
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

	it('prunes what no pack wants any more', async () => {
		store.set('http://feeds.test/a.mp3', new Response('a'));
		store.set('http://feeds.test/b.mp3', new Response('b'));
		expect(await pruneMedia(new Set(['http://feeds.test/b.mp3']))).toBe(1);
		expect([...store.keys()]).toEqual(['http://feeds.test/b.mp3']);
	});
});
