// @vitest-environment jsdom
// Full text over 24 real pages (testbed/fixtures/fulltext, from Readability's own test suite): the
// text a reader sees (the extraction, sanitized by the feed content's sanitizer and rendered)
// against the text of each page's expected.html. The measure: the word-level Dice similarity of the
// two texts (2·|A∩B| / (|A|+|B|) over their multisets of lowercased words, a word a run of letters
// or digits), at least 0.95 on every page. The figures are printed per page.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractArticle } from './extract';
import { IMAGE_UNAVAILABLE_CLASS, sanitizeArticle } from './sanitize';
import { isImageProxyUrl } from './url';

const PAGES = join(import.meta.dirname, '../../../testbed/fixtures/fulltext');
const NAMES = readdirSync(PAGES, { withFileTypes: true })
	.filter((entry) => entry.isDirectory())
	.map((entry) => entry.name)
	.sort();
const THRESHOLD = 0.95;
const PROXY =
	'http://localhost:3000/tt-rss/public.php?op=pluginhandler&plugin=reader&pmethod=image';

interface Metadata {
	title: string | null;
	byline: string | null;
	dir: string | null;
	siteName: string | null;
}

function words(text: string): string[] {
	return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Word-level Dice similarity of two texts (multisets of words). */
export function wordSimilarity(a: string, b: string): number {
	const left = words(a);
	const right = words(b);
	if (left.length + right.length === 0) return 1;
	const counts = new Map<string, number>();
	for (const word of left) counts.set(word, (counts.get(word) ?? 0) + 1);
	let shared = 0;
	for (const word of right) {
		const n = counts.get(word) ?? 0;
		if (n > 0) {
			shared++;
			counts.set(word, n - 1);
		}
	}
	return (2 * shared) / (left.length + right.length);
}

/**
 * Every image address the article names, signed as the plugin signs a page's images (the
 * plugin's own signing of these pages is tested in plugin-page.spec.ts).
 */
function signedAll(html: string, base: string): Record<string, string> {
	const holder = document.createElement('template');
	holder.innerHTML = html;
	const images: Record<string, string> = {};
	const sign = (raw: string) => {
		const url = new URL(raw, base).href;
		images[url] = `${PROXY}&url=${encodeURIComponent(url)}&sig=ab`;
	};
	for (const el of holder.content.querySelectorAll('img[src], video[poster]'))
		sign(el.getAttribute('src') ?? el.getAttribute('poster') ?? '');
	for (const el of holder.content.querySelectorAll('[srcset]'))
		for (const part of (el.getAttribute('srcset') ?? '').split(/,\s+/))
			if (part.trim()) sign(part.trim().split(/\s+/)[0] ?? '');
	return images;
}

const rows: string[] = [];
afterAll(() => {
	console.info(
		`full text vs expected.html, word-level Dice (threshold ${String(THRESHOLD)}):\n${rows.join('\n')}`
	);
});

describe('full text of real pages', () => {
	it('has the 24 pages', () => {
		expect(NAMES).toHaveLength(24);
	});

	it.each(NAMES)('%s: the reader sees the article’s text', (name) => {
		const url = `http://feeds.test/fulltext/${name}/source.html`;
		const html = readFileSync(join(PAGES, name, 'source.html'), 'utf8');
		const expected = readFileSync(join(PAGES, name, 'expected.html'), 'utf8');
		const meta = JSON.parse(
			readFileSync(join(PAGES, name, 'expected-metadata.json'), 'utf8')
		) as Metadata;

		const first = extractArticle({ url, html, images: {} });
		expect(first).toBeDefined();
		const article = extractArticle({
			url,
			html,
			images: signedAll(first?.content ?? '', url)
		});
		if (!article) throw new Error('no article');
		const shown = document.createElement('div');
		shown.append(
			sanitizeArticle(article.content, {
				baseUrl: article.url,
				hasSandbox: true,
				signedImages: article.images
			})
		);
		const want = document.createElement('div');
		want.innerHTML = expected;
		const similarity = wordSimilarity(shown.textContent, want.textContent);
		rows.push(
			`${name.padEnd(22)} ${similarity.toFixed(4)}  ${String(words(shown.textContent).length).padStart(6)} words`
		);
		expect(similarity).toBeGreaterThanOrEqual(THRESHOLD);

		// What it says of itself, as Readability reads the page.
		expect(article.title ?? null).toBe(meta.title?.replace(/\s+/g, ' ').trim() || null);
		if (meta.byline) expect(article.byline).toBe(meta.byline.replace(/\s+/g, ' ').trim());
		if (meta.dir === 'rtl') expect(article.dir).toBe('rtl');

		// Nothing from the page's own servers: every image through the proxy, none left out.
		for (const img of shown.querySelectorAll('img')) {
			expect(isImageProxyUrl(new URL(img.src)), img.src).toBe(true);
		}
		expect(shown.querySelectorAll(`.${IMAGE_UNAVAILABLE_CLASS}`)).toHaveLength(0);
		// Nothing of the page can run: no script, no handler, no frame without its sandbox.
		expect(shown.querySelector('script, style, object, embed, form')).toBeNull();
		for (const el of shown.querySelectorAll('*')) {
			for (const attr of el.attributes) expect(attr.name, name).not.toMatch(/^on/i);
		}
		for (const frame of shown.querySelectorAll('iframe')) {
			expect(frame.getAttribute('sandbox')).not.toContain('allow-same-origin');
		}
	});

	it('keeps no image that the plugin did not sign', () => {
		const url = 'http://feeds.test/fulltext/lazy-image-1/source.html';
		const html = readFileSync(join(PAGES, 'lazy-image-1', 'source.html'), 'utf8');
		const article = extractArticle({ url, html, images: {} });
		if (!article) throw new Error('no article');
		const shown = document.createElement('div');
		shown.append(sanitizeArticle(article.content, { baseUrl: url, signedImages: {} }));
		expect(shown.querySelectorAll('img')).toHaveLength(0);
		expect(shown.querySelectorAll(`.${IMAGE_UNAVAILABLE_CLASS}`).length).toBeGreaterThan(0);
	});

	it('finds no article in a page without one', () => {
		expect(
			extractArticle({ url: 'http://feeds.test/x', html: '<html><body></body></html>', images: {} })
		).toBeUndefined();
	});
});
