/**
 * Full text (issue 59): the article in a page the Reader plugin fetched (api/page.ts), extracted
 * with Mozilla's Readability (the library of Firefox's Reader View) over its own DOM parser,
 * JSDOMParser, so it runs in a worker (content/full-text.worker.ts): no browser DOM is made, no
 * script of the page runs, nothing the page names is loaded. The HTML it gives back is still
 * hostile: the page's screen sanitizes it with the feed content's sanitizer (sanitize.ts) and
 * loads its images only through the addresses the plugin signed (`images`).
 */
import { Readability } from '@mozilla/readability';
import JSDOMParser from '@mozilla/readability/JSDOMParser.js';
import type { ArticlePage } from '$lib/api/page';

/** What the extraction found: the article's HTML (hostile) and what it says of itself. */
export interface ExtractedArticle {
	/** The page's address (after redirects): the base of the content's relative addresses. */
	url: string;
	/** The article's HTML, as Readability keeps it: sanitize before use. */
	content: string;
	title: string | undefined;
	byline: string | undefined;
	siteName: string | undefined;
	excerpt: string | undefined;
	lang: string | undefined;
	dir: 'ltr' | 'rtl' | undefined;
	/** Words in the article's text (reading time). */
	words: number;
	/** Image address in the page → its signed proxy address (the plugin's `images`). */
	images: Record<string, string>;
}

/** A page bigger than this many elements is not worth the wait (Readability's own guard). */
const MAX_ELEMENTS = 60_000;

function text(value: string | null | undefined, max = 500): string | undefined {
	const trimmed = value?.replace(/\s+/g, ' ').trim();
	return trimmed ? trimmed.slice(0, max) : undefined;
}

/** Words as the reader counts them: runs of letters or digits (CJK counted per character). */
export function countWords(value: string): number {
	const cjk = value.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu)?.length ?? 0;
	const rest = value.replace(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu, ' ');
	return cjk + (rest.match(/[\p{L}\p{N}]+/gu)?.length ?? 0);
}

/**
 * Image addresses keyed as the browser spells them: the plugin resolved them in PHP, the
 * extraction's addresses come from the URL parser, and the sanitizer looks them up by the latter.
 */
function browserKeys(images: Record<string, string>): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [image, proxied] of Object.entries(images)) {
		out[image] = proxied;
		try {
			out[new URL(image).href] = proxied;
		} catch {
			// Not a URL the browser reads: kept under its own spelling only.
		}
	}
	return out;
}

/** The article of `page`, or undefined when the page holds none Readability can find. */
export function extractArticle(page: ArticlePage): ExtractedArticle | undefined {
	const doc = new JSDOMParser().parse(page.html, page.url);
	const article = new Readability(doc, { maxElemsToParse: MAX_ELEMENTS }).parse();
	const content = article?.content;
	if (!article || !content) return undefined;
	const dir = article.dir?.toLowerCase();
	return {
		url: page.url,
		content,
		title: text(article.title),
		byline: text(article.byline),
		siteName: text(article.siteName),
		excerpt: text(article.excerpt, 1000),
		lang: text(article.lang, 35),
		dir: dir === 'rtl' || dir === 'ltr' ? dir : undefined,
		words: countWords(article.textContent ?? ''),
		images: browserKeys(page.images)
	};
}
