// The Reader plugin's full-text page method (package/init.php `page`, issue 59): tt-rss fetches an
// article's page for the app under the image proxy's address rules, size limit and timeout, with
// a link signed per user (no session in any URL), and answers JSON the app reads
// (src/lib/api/page.ts). Run against both tt-rss versions' Plugin class with
// plugin-image-proxy.php's stand-ins, and with the plugin's own curl transport to this spec's
// servers on loopback.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEEDS, hasPhp, listen, proxyServers, run, runAsync } from './testing/plugin-proxy';

const SERVERS = proxyServers('plugin-page-');

/** The names the stand-in resolver knows. */
const HOSTS = {
	'news.example': ['93.184.215.14'],
	'cdn.example': ['93.184.215.15'],
	'private.example': ['10.0.0.5']
};

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>A page</title></head><body>
<article><h1>Headline</h1><p>Body text.</p>
<img src="/img/a.png" alt="a">
<img src="data:image/gif;base64,R0lGOD" data-src="lazy/b.jpg" alt="b">
<img srcset="https://cdn.example/c-1x.webp 1x, //cdn.example/c-2x.webp 2x">
<picture><source srcset="../d.avif" type="image/avif"><img src="https://cdn.example/d.jpg"></picture>
<figure data-original="https://cdn.example/e.jpeg?w=800"><figcaption>e</figcaption></figure>
<img src="http://127.0.0.1/internal.png"><img src="http://10.0.0.5/private.png">
<video src="https://cdn.example/movie.mp4" poster="poster.png"></video>
</article></body></html>`;

interface PageReply {
	url?: string;
	html?: string;
	images?: Record<string, string>;
	error?: string;
	message?: string;
}

describe.each(SERVERS)('the full-text page on $name', (server) => {
	const skip = !hasPhp || !server.available;

	it.skipIf(skip)('signs each article’s link for the page method, never an internal one', () => {
		const checked = run(
			server,
			['https://news.example/2026/story.html', 'http://10.0.0.5/story', 'javascript:alert(1)'],
			{ method: 'page', hosts: HOSTS, page_body: PAGE }
		);
		const page = checked[0]?.row.reader_page;
		expect(typeof page).toBe('string');
		const url = new URL(String(page));
		expect(url.origin + url.pathname).toBe('https://rss.test/tt-rss/public.php');
		expect(Object.fromEntries(url.searchParams)).toEqual({
			op: 'pluginhandler',
			plugin: 'reader',
			pmethod: 'page',
			uid: '7',
			url: 'https://news.example/2026/story.html',
			sig: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown
		});
		// No session in it: the signature is all it carries.
		expect(String(page)).not.toMatch(/sid|session/i);
		expect(checked[1]?.row.reader_page).toBeUndefined();
		expect(checked[2]?.row.reader_page).toBeUndefined();
	});

	it.skipIf(skip)(
		'answers the page as JSON with every image in it signed for the image proxy',
		() => {
			const [c] = run(server, ['https://news.example/2026/story.html'], {
				method: 'page',
				hosts: HOSTS,
				page_body: PAGE
			});
			expect(c?.status).toBe(200);
			const reply = c?.body as PageReply;
			expect(reply.url).toBe('https://news.example/2026/story.html');
			expect(reply.html).toBe(PAGE);
			expect(Object.keys(reply.images ?? {}).sort()).toEqual(
				[
					'https://news.example/img/a.png',
					'https://news.example/2026/lazy/b.jpg',
					'https://cdn.example/c-1x.webp',
					'https://cdn.example/c-2x.webp',
					'https://news.example/d.avif',
					'https://cdn.example/d.jpg',
					'https://cdn.example/e.jpeg?w=800',
					'https://news.example/2026/poster.png'
				].sort()
			);
			for (const [image, proxied] of Object.entries(reply.images ?? {})) {
				const q = new URL(proxied).searchParams;
				expect(q.get('pmethod'), image).toBe('image');
				expect(q.get('url'), image).toBe(image);
			}
			// Asked once: the page, nothing it names.
			expect(c?.fetched).toEqual(['https://news.example/2026/story.html']);
			expect(c?.fetch_options?.accept).toMatch(/^text\/html/);
			expect(c?.fetch_options?.max_size).toBe(5242880);
			expect(c?.fetch_options?.timeout).toBe(15);
		}
	);

	it.skipIf(skip)('refuses a page signature for an image and the other way round', () => {
		const [asImage] = run(server, ['https://news.example/a.png'], {
			method: 'page',
			call: 'image',
			hosts: HOSTS,
			page_body: PAGE
		});
		expect(asImage?.status).toBe(403);
		expect(asImage?.fetched).toEqual([]);
		const [asPage] = run(server, ['https://news.example/a.png'], {
			call: 'page',
			hosts: HOSTS
		});
		expect(asPage?.status).toBe(403);
		expect((asPage?.body as PageReply).error).toBe('refused');
		expect(asPage?.fetched).toEqual([]);
	});

	it.skipIf(skip)('refuses what is not public, as the image proxy does, before connecting', () => {
		const urls = [
			'http://169.254.169.254/latest/meta-data/',
			'http://0x7f.0.0.1/',
			'https://private.example/story',
			'http://news.example:8080/story'
		];
		const checked = run(server, urls, { method: 'page', force: true, hosts: HOSTS });
		expect(checked.map((c) => c.status)).toEqual([403, 403, 403, 403]);
		expect(checked.map((c) => (c.body as PageReply).error)).toEqual([
			'refused',
			'refused',
			'refused',
			'refused'
		]);
		expect(checked.flatMap((c) => c.fetched)).toEqual([]);
	});

	it.skipIf(skip)('refuses what is not a web page', () => {
		const [c] = run(server, ['https://news.example/file.pdf'], {
			method: 'page',
			hosts: HOSTS,
			page_body: '%PDF-1.7',
			page_type: 'application/pdf'
		});
		expect(c?.status).toBe(415);
		expect((c?.body as PageReply).error).toBe('not_html');
	});

	it.skipIf(skip)('reads a page in another charset as UTF-8', () => {
		const latin1 = Buffer.from('<p>Caf\xe9 cr\xe8me</p>', 'latin1').toString('base64');
		const [c] = run(server, ['https://news.example/fr.html'], {
			method: 'page',
			hosts: HOSTS,
			page_body64: latin1,
			page_type: 'text/html; charset=ISO-8859-1'
		});
		expect((c?.body as PageReply).html).toBe('<p>Café crème</p>');
	});
});

/**
 * The plugin's own curl transport to this spec's page host on loopback (its name the test bed's
 * feeds host, pinned by the stand-in resolver to 127.0.0.1, allowed as an administrator allows a
 * LAN host): a page, one too large, one too slow, an image, and a redirect to a refused address.
 */
describe.each(SERVERS)('the full-text page’s own fetch on $name', (server) => {
	const skip = !hasPhp || !server.available;
	let host: Server;
	let port = 0;
	const held: Array<() => void> = [];

	beforeAll(async () => {
		if (skip) return;
		host = createServer((req, res) => {
			const path = req.url ?? '';
			if (path === '/story') res.writeHead(200, { 'Content-Type': 'text/html' }).end(PAGE);
			else if (path === '/moved') res.writeHead(301, { Location: '/story' }).end();
			else if (path === '/big')
				res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>' + 'x'.repeat(5000));
			else if (path === '/slow') {
				// Never answers while the test runs: the plugin's timeout ends it.
				res.writeHead(200, { 'Content-Type': 'text/html' });
				res.write('<p>');
				held.push(() => res.end());
			} else if (path === '/pic.png') res.writeHead(200, { 'Content-Type': 'image/png' }).end('x');
			else if (path === '/to-loopback') res.writeHead(302, { Location: 'http://127.0.0.2/' }).end();
			else res.writeHead(404).end();
		});
		port = await listen(host, '127.0.0.1');
	});
	afterAll(() => {
		for (const end of held) end();
		host?.close();
	});

	it.skipIf(skip)(
		'fetches within the limits, and says which limit a refused page met',
		async () => {
			const base = `http://${FEEDS.feedsHost}:${String(port)}`;
			const paths = ['/story', '/moved', '/big', '/slow', '/pic.png', '/to-loopback', '/gone'];
			const checked = await runAsync(
				server,
				paths.map((p) => base + p),
				{
					method: 'page',
					real: true,
					hosts: { [FEEDS.feedsHost]: ['127.0.0.1'] },
					allow: '127.0.0.1/32',
					ports: [port],
					max_bytes: 1000,
					timeout: 1
				}
			);
			expect(checked.map((c) => c.status)).toEqual([200, 200, 413, 504, 415, 403, 502]);
			expect(checked.map((c) => (c.body as PageReply).error)).toEqual([
				undefined,
				undefined,
				'too_large',
				'timeout',
				'not_html',
				'refused',
				'unreachable'
			]);
			// The redirect's page says where it ended, the base of its relative addresses.
			expect((checked[1]?.body as PageReply).url).toBe(`${base}/story`);
			expect((checked[0]?.body as PageReply).images?.[`${base}/img/a.png`]).toMatch(
				/pmethod=image/
			);
		}
	);
});
