import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { articleImageUrls, askedUrls, cacheImages, IMAGE_PARALLEL, imageUrls } from './images';

vi.mock('./policy', async (original) => ({
	...(await original<typeof import('./policy')>()),
	imagesAllowed: () => Promise.resolve(true)
}));
let owner = 'reader@x';
vi.mock('$lib/db/device', async (original) => ({
	...(await original<typeof import('$lib/db/device')>()),
	cacheOwnedBy: (account: string | undefined) => Promise.resolve(account === owner)
}));

const APP = 'https://reader.test';

beforeEach(() => {
	// The worker's own origin: what loads by itself must never go there (tt-rss, the reader's cookies).
	vi.stubGlobal('location', { origin: APP, href: `${APP}/` });
});

afterEach(() => {
	vi.unstubAllGlobals();
});

describe("askedUrls: the worker's keep-a-copy messages", () => {
	const hostile = [
		`${APP}/tt-rss/api/`,
		`${APP}/tt-rss/backend.php?op=logout`,
		'HTTPS://READER.TEST/x',
		'javascript:alert(1)',
		'data:image/png;base64,AAAA',
		'blob:https://reader.test/1',
		'file:///etc/passwd',
		'/relative/to/the/app.mp3',
		'//reader.test/x',
		'ftp://feeds.test/a.mp3',
		'http://[',
		'',
		42,
		null,
		{ toString: () => 'https://feeds.test/a.mp3' }
	];

	it('keeps only what the one URL rule lets the app fetch, and counts the rest', () => {
		for (const [type, kind] of [
			['CACHE_MEDIA', 'media'],
			['CACHE_IMAGES', 'image']
		] as const) {
			const asked = askedUrls(
				{
					type,
					urls: ['https://feeds.test/a.mp3', ...hostile, ' https://feeds.test/a.mp3 '],
					account: 'reader@x'
				},
				type,
				kind
			);
			expect(asked).toEqual({
				urls: ['https://feeds.test/a.mp3'],
				refused: hostile.length + 1,
				account: 'reader@x'
			});
		}
	});

	it('ignores another message or one without a list', () => {
		for (const data of [
			null,
			'CACHE_MEDIA',
			{ type: 'CACHE_IMAGES', urls: ['https://feeds.test/a.mp3'] },
			{ type: 'CACHE_MEDIA', urls: 'https://feeds.test/a.mp3' },
			{ type: 'CACHE_MEDIA' },
			// No account: nothing could check the cache is still that account's.
			{ type: 'CACHE_MEDIA', urls: ['https://feeds.test/a.mp3'] },
			{ type: 'CACHE_MEDIA', urls: ['https://feeds.test/a.mp3'], account: 7 }
		]) {
			expect(askedUrls(data, 'CACHE_MEDIA', 'media')).toBeUndefined();
		}
	});
});

describe('images through the Reader plugin’s signed proxy (same origin, readable)', () => {
	const signed = `${APP}/tt-rss/public.php?op=pluginhandler&plugin=reader&pmethod=image&uid=2&url=http%3A%2F%2Ffeeds.test%2Fa.png&sig=ab12`;

	it('are kept as images, never as media', () => {
		expect(
			askedUrls({ type: 'CACHE_IMAGES', urls: [signed], account: 'a' }, 'CACHE_IMAGES', 'image')
		).toEqual({ urls: [signed], refused: 0, account: 'a' });
		expect(
			askedUrls({ type: 'CACHE_MEDIA', urls: [signed], account: 'a' }, 'CACHE_MEDIA', 'media')
		).toEqual({ urls: [], refused: 1, account: 'a' });
	});

	it('are listed from a body like any image', () => {
		const html = `<p><img src="${signed.replace(/&/g, '&amp;')}"></p>`;
		expect(imageUrls(html, 'https://feeds.test/post/1')).toEqual([signed]);
	});

	it('are the only ones kept where the plugin signs the account’s images (issue 55)', () => {
		const b = 'https://cdn.test/b.png?x=1&y=2';
		const signedB = signed.replace('a.png', 'b.png');
		const map = { 'http://feeds.test/a.png': signed, [b]: signedB };
		const html =
			`<img src="${signed.replace(/&/g, '&amp;')}"><img src="${b.replace(/&/g, '&amp;')}">` +
			'<img src="https://tracker.test/x.gif"><img src="data:image/png;base64,AAAA">';
		// Rewritten, named by its own address (the signed one is taken), never an unsigned host.
		expect(imageUrls(html, 'https://feeds.test/post/1', map)).toEqual([signed, signedB]);
		// A row the plugin's hook did not see, while the account's images go through it: none.
		expect(
			imageUrls('<img src="https://cdn.test/c.png">', 'https://feeds.test/post/1', {})
		).toEqual([]);
		// The flavor image the same way.
		const article = { content: html, link: 'https://feeds.test/post/1', flavorImage: signedB };
		expect(articleImageUrls(article, map)).toEqual([signed, signedB]);
		expect(
			articleImageUrls({ ...article, content: '', flavorImage: 'https://cdn.test/d.png' }, map)
		).toEqual([]);
		// Without the plugin, as before.
		expect(
			articleImageUrls({ ...article, flavorImage: 'https://cdn.test/d.png' }, undefined)
		).toEqual([signed, b, 'https://tracker.test/x.gif', 'https://cdn.test/d.png']);
	});
});

describe('imageUrls', () => {
	it('lists the http(s) images of a body by the same rule, never one of the app’s origin', () => {
		const html =
			'<img src="a.png"><img src="https://cdn.test/b.png?x=1&amp;y=2"><img src="/tt-rss/public.php?op=cached">' +
			`<img src="${APP}/tt-rss/api/"><img src="data:image/png;base64,AAAA"><img src="javascript:x">`;
		expect(imageUrls(html, 'https://feeds.test/post/1')).toEqual([
			'https://feeds.test/post/a.png',
			'https://cdn.test/b.png?x=1&y=2',
			'https://feeds.test/tt-rss/public.php?op=cached'
		]);
	});
});

describe('cacheImages: a few at a time', () => {
	/** A feed host whose answers wait until `release`; Cache Storage in a Map. */
	function host() {
		const stored = new Map<string, Response>();
		const waiting: (() => void)[] = [];
		let inFlight = 0;
		let most = 0;
		vi.stubGlobal('caches', {
			open: () =>
				Promise.resolve({
					match: (url: string) => Promise.resolve(stored.get(url)),
					put: (url: string, response: Response) => Promise.resolve(void stored.set(url, response)),
					keys: () => Promise.resolve([...stored.keys()].map((url) => new Request(url))),
					delete: (request: Request) => Promise.resolve(stored.delete(request.url))
				})
		});
		vi.stubGlobal('fetch', async () => {
			inFlight++;
			most = Math.max(most, inFlight);
			await new Promise<void>((resolve) => waiting.push(resolve));
			inFlight--;
			return new Response('img');
		});
		return {
			stored,
			most: () => most,
			/** Answers every request waiting now. */
			release: () => waiting.splice(0).forEach((answer) => answer())
		};
	}
	const urls = Array.from({ length: 20 }, (_, i) => `https://feeds.test/${i}.png`);

	it(`fetches at most ${IMAGE_PARALLEL} at once, more than one, and keeps every one`, async () => {
		const feeds = host();
		let done = false;
		const keeping = cacheImages(urls, 'reader@x').finally(() => (done = true));
		while (!done) {
			await new Promise((r) => setTimeout(r, 0));
			feeds.release();
		}
		expect(await keeping).toEqual({ stored: 20, skipped: 0 });
		expect(feeds.most()).toBe(IMAGE_PARALLEL);
		expect(feeds.stored.size).toBe(20);
	});

	it("keeps nothing more once the cache is another account's", async () => {
		const feeds = host();
		let done = false;
		const keeping = cacheImages(urls, 'reader@x').finally(() => (done = true));
		await new Promise((r) => setTimeout(r, 0));
		owner = 'someone@else';
		while (!done) {
			await new Promise((r) => setTimeout(r, 0));
			feeds.release();
		}
		owner = 'reader@x';
		const result = await keeping;
		expect(result.stored).toBe(0);
		expect(feeds.stored.size).toBe(0);
		// The lanes stop: no image after the first answers is asked for.
		expect(result.skipped).toBeLessThanOrEqual(IMAGE_PARALLEL);
	});
});
