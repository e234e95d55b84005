import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('./policy', () => ({ imagesAllowed: () => Promise.resolve(true) }));
vi.mock('$lib/db/device', () => ({ cacheOwnedBy: () => Promise.resolve(true) }));

const { cacheImages } = await import('./images');

/** A Cache Storage of one cache, keyed by URL (what cacheImages uses of it). */
function fakeCaches() {
	const entries = new Map<string, Response>();
	const cache = {
		match: (url: string) => Promise.resolve(entries.get(url)),
		put: (url: string, response: Response) => {
			entries.set(url, response);
			return Promise.resolve();
		},
		keys: () => Promise.resolve([...entries.keys()].map((url) => ({ url }))),
		delete: (key: { url: string }) => Promise.resolve(entries.delete(key.url))
	};
	return { entries, caches: { open: () => Promise.resolve(cache) } };
}

const PROXY = 'https://reader.test/tt-rss/public.php?op=pluginhandler&plugin=reader&pmethod=image';

describe('cacheImages with the plugin’s proxy', () => {
	let store: ReturnType<typeof fakeCaches>;
	beforeEach(() => {
		store = fakeCaches();
		vi.stubGlobal('caches', store.caches);
	});
	afterEach(() => vi.unstubAllGlobals());

	it('keeps a readable image, but not a refusal or an error of the proxy', async () => {
		const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3]);
		const answers: Record<string, () => Response> = {
			[`${PROXY}&url=a&sig=1`]: () =>
				new Response(png, { headers: { 'Content-Type': 'image/png' } }),
			[`${PROXY}&url=b&sig=0`]: () => new Response('Not an image address', { status: 403 }),
			[`${PROXY}&url=c&sig=1`]: () =>
				new Response('The image could not be fetched.', { status: 502 })
		};
		vi.stubGlobal('fetch', (url: string) => Promise.resolve(answers[url]?.()));
		const result = await cacheImages(Object.keys(answers), 'reader@x');
		expect(result).toEqual({ stored: 1, skipped: 2 });
		expect([...store.entries.keys()]).toEqual([`${PROXY}&url=a&sig=1`]);
		// Kept whole: the storage budget reads its true size.
		const kept = store.entries.get(`${PROXY}&url=a&sig=1`);
		expect((await kept?.arrayBuffer())?.byteLength).toBe(png.byteLength);
	});

	it('still keeps an opaque answer (a feed host without the proxy): its status cannot be read', async () => {
		const opaque = { type: 'opaque', ok: false, status: 0, body: null } as unknown as Response;
		vi.stubGlobal('fetch', () => Promise.resolve(opaque));
		expect(await cacheImages(['https://feeds.test/a.png'], 'reader@x')).toEqual({
			stored: 1,
			skipped: 0
		});
	});
});
