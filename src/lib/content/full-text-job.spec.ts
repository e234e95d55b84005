import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runFullText } from './full-text-job';

const ORIGIN = 'http://localhost:3000';
const PAGE_URL = `${ORIGIN}/tt-rss/public.php?op=pluginhandler&plugin=reader&pmethod=page&uid=2&url=u&sig=ab`;
const RTL = readFileSync(
	join(import.meta.dirname, '../../../testbed/fixtures/fulltext/rtl-1/source.html'),
	'utf8'
);

function answer(body: unknown, status = 200): void {
	vi.stubGlobal(
		'fetch',
		vi.fn(() => Promise.resolve(new Response(JSON.stringify(body), { status })))
	);
}

afterEach(() => {
	vi.unstubAllGlobals();
});

describe('runFullText', () => {
	it('fetches the page through the plugin and extracts its article', async () => {
		answer({ url: 'http://feeds.test/rtl.html', html: RTL, images: [] });
		const done = await runFullText({ id: 3, pageUrl: PAGE_URL, origin: ORIGIN });
		expect(done.id).toBe(3);
		if (!done.ok) throw new Error(done.problem);
		expect(done.article.title).toBe('RTL Test');
		expect(done.article.dir).toBe('rtl');
		expect(done.article.url).toBe('http://feeds.test/rtl.html');
		expect(done.article.words).toBeGreaterThan(100);
	});

	it('says so when the page holds no article', async () => {
		answer({ url: 'http://feeds.test/empty.html', html: '<html><body></body></html>', images: {} });
		expect(await runFullText({ id: 4, pageUrl: PAGE_URL, origin: ORIGIN })).toEqual({
			id: 4,
			ok: false,
			problem: 'no_article'
		});
	});

	it('passes on the plugin’s refusal, and asks nothing without a page address', async () => {
		answer({ error: 'too_large', message: 'The page is too large.' }, 413);
		expect(await runFullText({ id: 5, pageUrl: PAGE_URL, origin: ORIGIN })).toEqual({
			id: 5,
			ok: false,
			problem: 'too_large'
		});
		const fetch = vi.fn();
		vi.stubGlobal('fetch', fetch);
		expect(await runFullText({ id: 6, pageUrl: undefined, origin: ORIGIN })).toEqual({
			id: 6,
			ok: false,
			problem: 'no_plugin'
		});
		expect(fetch).not.toHaveBeenCalled();
	});
});
