import { describe, expect, it, vi } from 'vitest';
import {
	fetchArticlePage,
	PAGE_REPLY_MAX_BYTES,
	PageError,
	type PageProblem,
	parsePageReply
} from './page';

const ORIGIN = 'http://localhost:3000';
const PAGE_URL = `${ORIGIN}/tt-rss/public.php?op=pluginhandler&plugin=reader&pmethod=page&uid=2&url=https%3A%2F%2Fnews.example%2Fa&sig=ab12`;
const GOOD = {
	url: 'https://news.example/a',
	html: '<html><body><p>Text</p></body></html>',
	images: { 'https://news.example/a.png': `${ORIGIN}/tt-rss/public.php?pmethod=image` }
};

function reply(body: string, status = 200, headers: Record<string, string> = {}): Response {
	return new Response(body, { status, headers });
}

async function problemOf(promise: Promise<unknown>): Promise<PageProblem | undefined> {
	try {
		await promise;
	} catch (error) {
		if (error instanceof PageError) return error.problem;
		throw error;
	}
	return undefined;
}

function ask(fetch: (input: string, init: RequestInit) => Promise<Response>, url = PAGE_URL) {
	return fetchArticlePage(url, { origin: ORIGIN, fetch, timeoutMs: 1000 });
}

describe('fetchArticlePage', () => {
	it('asks the signed address on the app’s origin, without cookies, and reads the page', async () => {
		const fetch = vi.fn(() => Promise.resolve(reply(JSON.stringify(GOOD))));
		await expect(ask(fetch)).resolves.toEqual(GOOD);
		expect(fetch).toHaveBeenCalledWith(
			PAGE_URL,
			expect.objectContaining({ method: 'GET', credentials: 'omit', redirect: 'error' })
		);
	});

	it('never asks another origin, nor an address that is not the plugin’s page', async () => {
		const fetch = vi.fn(() => Promise.resolve(reply(JSON.stringify(GOOD))));
		const none = fetchArticlePage(undefined, { origin: ORIGIN, fetch });
		expect(await problemOf(none)).toBe('no_plugin');
		for (const url of [
			'',
			'not a url',
			PAGE_URL.replace(ORIGIN, 'https://other.example'),
			PAGE_URL.replace('pmethod=page', 'pmethod=image'),
			'https://news.example/a'
		]) {
			expect(await problemOf(ask(fetch, url))).toBe('no_plugin');
		}
		expect(fetch).not.toHaveBeenCalled();
	});

	it('asks the signed query of public.php beside the API the app talks to', async () => {
		const fetch = vi.fn(() => Promise.resolve(reply(JSON.stringify(GOOD))));
		// tt-rss signed it under its own address; the app reaches it through a proxy on its origin.
		const signed = PAGE_URL.replace(ORIGIN, 'http://tt.internal:8080');
		await fetchArticlePage(signed, { origin: ORIGIN, apiUrl: '/rss/api/', fetch });
		expect(fetch).toHaveBeenCalledWith(
			`${ORIGIN}/rss/public.php?${new URL(PAGE_URL).searchParams.toString()}`,
			expect.anything()
		);
		// An API on another origin is not asked either.
		const other = fetchArticlePage(PAGE_URL, {
			origin: ORIGIN,
			apiUrl: 'https://other.example/tt-rss/api/',
			fetch
		});
		expect(await problemOf(other)).toBe('no_plugin');
		expect(fetch).toHaveBeenCalledTimes(1);
	});

	it.each<[string, Response, PageProblem]>([
		['an HTML error page', reply('<!doctype html><h1>502 Bad Gateway</h1>', 502), 'bad_reply'],
		['a missing plugin (404 page)', reply('<html>Not Found</html>', 404), 'no_plugin'],
		['garbage', reply('\u0000\u0001garbage{', 200), 'bad_reply'],
		[
			'an API error envelope',
			reply('{"seq":0,"status":1,"content":{"error":"NOT_LOGGED_IN"}}'),
			'bad_reply'
		],
		['an empty reply', reply('', 200), 'bad_reply'],
		['an empty 500', reply('', 500), 'bad_reply'],
		['JSON of another shape', reply('[1,2,3]'), 'bad_reply'],
		['a page without html', reply(JSON.stringify({ ...GOOD, html: '' })), 'bad_reply'],
		[
			'a page at a javascript: URL',
			reply(JSON.stringify({ ...GOOD, url: 'javascript:x' })),
			'bad_reply'
		],
		['images of the wrong type', reply(JSON.stringify({ ...GOOD, images: 'x' })), 'bad_reply'],
		[
			'the plugin’s too-large refusal',
			reply('{"error":"too_large","message":"The page is too large."}', 413),
			'too_large'
		],
		[
			'the plugin’s timeout',
			reply('{"error":"timeout","message":"The page could not be fetched in time."}', 504),
			'timeout'
		],
		['the plugin’s refusal', reply('{"error":"refused","message":"Refused."}', 403), 'refused'],
		['not a web page', reply('{"error":"not_html","message":"Not a web page."}', 415), 'not_html'],
		['an unknown refusal', reply('{"error":"whatever"}', 502), 'bad_reply'],
		['a 4xx with the page’s shape', reply(JSON.stringify(GOOD), 403), 'bad_reply']
	])('turns %s into a clear problem', async (_name, response, problem) => {
		expect(await problemOf(ask(() => Promise.resolve(response)))).toBe(problem);
	});

	it('takes an empty image map as PHP writes it', async () => {
		const page = await ask(() => Promise.resolve(reply(JSON.stringify({ ...GOOD, images: [] }))));
		expect(page.images).toEqual({});
	});

	it('refuses a reply too large before reading it, and one that grows too large', async () => {
		const declared = reply('{}', 200, { 'Content-Length': String(PAGE_REPLY_MAX_BYTES + 1) });
		expect(await problemOf(ask(() => Promise.resolve(declared)))).toBe('too_large');
		const chunk = new Uint8Array(1024 * 1024);
		let sent = 0;
		const stream = new ReadableStream<Uint8Array>({
			pull(controller) {
				sent += chunk.byteLength;
				controller.enqueue(chunk);
			}
		});
		expect(await problemOf(ask(() => Promise.resolve(new Response(stream))))).toBe('too_large');
		expect(sent).toBeLessThanOrEqual(PAGE_REPLY_MAX_BYTES + 2 * chunk.byteLength);
	});

	it('gives up on a server that does not answer in time', async () => {
		const never = (_input: string, init: RequestInit) =>
			new Promise<Response>((_resolve, reject) => {
				init.signal?.addEventListener('abort', () => reject(new Error('aborted')));
			});
		const started = fetchArticlePage(PAGE_URL, { origin: ORIGIN, fetch: never, timeoutMs: 5 });
		expect(await problemOf(started)).toBe('slow');
	});

	it('tells a cancelled request and a network failure apart', async () => {
		const controller = new AbortController();
		const never = (_input: string, init: RequestInit) =>
			new Promise<Response>((_resolve, reject) => {
				init.signal?.addEventListener('abort', () => reject(new Error('aborted')));
			});
		const asked = fetchArticlePage(PAGE_URL, {
			origin: ORIGIN,
			fetch: never,
			signal: controller.signal
		});
		controller.abort();
		expect(await problemOf(asked)).toBe('aborted');
		expect(await problemOf(ask(() => Promise.reject(new TypeError('Failed to fetch'))))).toBe(
			'network'
		);
	});
});

describe('parsePageReply', () => {
	it('keeps only string proxy addresses', () => {
		expect(
			parsePageReply({ ...GOOD, images: { a: 'https://x/p', b: 3, c: '' } }, 200).images
		).toEqual({ a: 'https://x/p' });
	});
});
