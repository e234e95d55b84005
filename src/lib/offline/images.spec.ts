import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { askedUrls, imageUrls } from './images';

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
