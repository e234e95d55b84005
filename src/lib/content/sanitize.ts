/**
 * Article HTML from feeds is hostile. Everything a feed, a plugin or a "share to Published" call
 * sends goes through `sanitizeArticle` before it reaches the DOM, even though tt-rss sanitizes too
 * (old servers, plugins, `sanitize: false` and shared HTML skip the server's sanitizer).
 *
 * Rendering choice: INLINE, not a sandboxed frame. The sanitized nodes are appended to the app's own
 * document (ArticleContent.svelte). Why:
 * - the body takes its natural height, the app's typography, the reader's text size and dark theme,
 *   find-in-page and text selection work, and links/images behave like the rest of the app;
 * - a frame per article would need a postMessage height protocol, its own styles and fonts, and
 *   embeds nested inside a sandboxed frame inherit its restrictions (video players break).
 * Defence in depth makes inline safe enough:
 * 1. this allowlist (no script, no handlers, no style, no class, no SVG/MathML, URLs re-checked
 *    after resolution);
 * 2. the app's CSP (`script-src 'self'`, `object-src 'none'`, `base-uri 'none'`): even a DOMPurify
 *    bypass could not run inline script or handlers;
 * 3. embedded iframes always get `sandbox="allow-scripts allow-popups"` and never
 *    `allow-same-origin`, so an embed runs in an opaque origin, not the app's;
 * 4. the nodes are handed over as a DocumentFragment, never serialised and re-parsed, so a
 *    parser round-trip (the mutation-XSS family) cannot turn sanitized markup into live markup.
 *
 * Policy in one place (docs/content-safety.md explains each line):
 * - elements: a fixed allowlist of text, list, table, figure, media and embed elements. No script,
 *   style, link, meta, base, form controls, object/embed, template, SVG or MathML (dropped with
 *   their content). Unknown elements are unwrapped (their text stays).
 * - attributes: a fixed allowlist; no `on*`, `style`, `class`, `role`, `aria-*`, `data-*`,
 *   `srcdoc`, `target` from the feed, `background`, `formaction`, `xlink:href`. `id`/`name` get the
 *   prefix `user-content-` (DOMPurify SANITIZE_NAMED_PROPS) so they cannot clobber `document.x`;
 *   same-document `#fragment` links are prefixed the same way and still work.
 * - URLs (`href`, `src`, `poster`, `srcset`): resolved against the article's link (`baseUrl`), then
 *   only http(s) (plus mailto:/tel: on links) survive; relative URLs without a usable base are
 *   dropped. Images, media and frames on the app's own origin are dropped too: they would load
 *   tt-rss URLs with the reader's cookies (a GET that changes something, a tracking pixel) — except
 *   an image through the Reader plugin's signed proxy (url.ts `isImageProxyUrl`). Where the plugin
 *   signs the account's images (`signedImages`), an image, srcset candidate or poster loads only
 *   through a signed address (url.ts `checkImageUrl`); an image left with none becomes a line
 *   saying so (`markUnavailable`), never a request to its host.
 *   `data:` only as `data:image/(png|gif|jpeg|webp|avif)` on `<img src>`: an image cannot run
 *   script, and feeds use tiny inline images. `safeUrl` applies the same rule to the server's URLs
 *   that the app renders outside the body (article link, enclosures, flavor image).
 * - links: `target="_blank" rel="noopener noreferrer"` (same-document fragments excepted: no target).
 * - images: `loading="lazy" decoding="async" referrerpolicy="no-referrer"`; media: `controls`,
 *   `preload="none"`, no `autoplay`.
 * - iframes: only with an http(s) `src`; always `sandbox="allow-scripts allow-popups"`,
 *   `referrerpolicy="no-referrer"`, `loading="lazy"`, no `srcdoc`/`allow`/`name`; when the caller
 *   did not tell the server `has_sandbox` (hasSandbox false), no iframe survives at all.
 */
import createDOMPurify, { type DOMPurify } from 'dompurify';
import { checkImageUrl, checkUrl, usableBase, type SignedImages, type UrlKind } from './url';
import { m } from '$lib/i18n/m';
import {
	BASE_CONFIG,
	IFRAME_SANDBOX,
	LINK_REL,
	NAMED_PROPS_PREFIX,
	WITHOUT_IFRAMES
} from './sanitize-policy';

export { safeUrl, type UrlKind } from './url';

export interface SanitizeOptions {
	/** The article's own link: relative URLs are resolved against it. Ignored unless http(s). */
	baseUrl?: string;
	/**
	 * Whether embedded iframes may be kept (the client sent `has_sandbox: true`). Default true:
	 * every kept iframe is sandboxed here. False drops every iframe.
	 */
	hasSandbox?: boolean;
	/**
	 * Where the Reader plugin signs the account's images, the article's signed addresses
	 * (url.ts `signedImagesOf`): images, srcset candidates and posters then load only through its
	 * proxy, and an image it did not sign shows a line saying so instead of being asked of its host.
	 */
	signedImages?: SignedImages;
}

/** Marks an image left with nothing it may load (the plugin did not sign it): a line replaces it. */
const UNAVAILABLE_ATTR = 'data-reader-unavailable';
/** The line's class (ArticleContent.svelte styles it). */
export const IMAGE_UNAVAILABLE_CLASS = 'image-unavailable';

interface Call {
	base: URL | undefined;
	hasSandbox: boolean;
	signed: SignedImages;
}
const IDLE: Call = { base: undefined, hasSandbox: true, signed: undefined };
/** State of the call in progress: DOMPurify's hooks belong to the instance, sanitize is synchronous. */
let current: Call = IDLE;

let purifier: DOMPurify | undefined;
/** Elements whose srcset had nothing left (fixMedia then tells an image with no source at all). */
let srcsetDropped = new WeakSet<Element>();

/** The rule for URLs inside the body being sanitized, against its article's base. */
function bodyUrl(raw: string, kind: UrlKind): string | undefined {
	return kind === 'image'
		? checkImageUrl(raw, current.base, current.signed)
		: checkUrl(raw, kind, current.base);
}

/**
 * Splits a srcset into [url, descriptors] pairs the way the HTML parser does: a URL is a run of
 * non-whitespace (so `data:…,…` stays whole), trailing commas end it, descriptors run to a comma.
 */
function srcsetCandidates(raw: string): Array<[string, string]> {
	const out: Array<[string, string]> = [];
	let i = 0;
	while (i < raw.length) {
		while (i < raw.length && /[\s,]/.test(raw.charAt(i))) i++;
		let url = '';
		while (i < raw.length && !/\s/.test(raw.charAt(i))) url += raw.charAt(i++);
		if (url === '') break;
		let descriptors = '';
		if (url.endsWith(',')) url = url.replace(/,+$/, '');
		else {
			while (i < raw.length && raw.charAt(i) !== ',') descriptors += raw.charAt(i++);
		}
		out.push([url, descriptors.trim()]);
	}
	return out;
}

function safeSrcset(raw: string, kind: 'image' | 'media'): string | undefined {
	const candidates: string[] = [];
	for (const [url, descriptors] of srcsetCandidates(raw)) {
		// data: never in srcset: only plain http(s) candidates are kept.
		const safe = /^\s*data:/i.test(url) ? undefined : bodyUrl(url, kind);
		if (!safe) continue;
		const descriptor = /^\d+(?:\.\d+)?[wx]$/.test(descriptors) ? descriptors : '';
		candidates.push(descriptor ? `${safe} ${descriptor}` : safe);
	}
	return candidates.length > 0 ? candidates.join(', ') : undefined;
}

function setOrRemove(el: Element, attr: string, value: string | undefined): void {
	if (value === undefined) el.removeAttribute(attr);
	else el.setAttribute(attr, value);
}

function fixLink(a: Element): void {
	const href = a.getAttribute('href');
	a.removeAttribute('target');
	a.setAttribute('rel', LINK_REL);
	if (href === null) return;
	const trimmed = href.trim();
	if (trimmed.startsWith('#')) {
		// A same-document link (footnotes): point it at the prefixed id, keep it in the page.
		const target = trimmed.slice(1);
		if (target === '') a.removeAttribute('href');
		else
			a.setAttribute(
				'href',
				'#' + (target.startsWith(NAMED_PROPS_PREFIX) ? target : NAMED_PROPS_PREFIX + target)
			);
		return;
	}
	const safe = bodyUrl(trimmed, 'link');
	setOrRemove(a, 'href', safe);
	if (safe !== undefined) a.setAttribute('target', '_blank');
}

function fixFrame(frame: Element): void {
	const src = frame.getAttribute('src');
	const safe = src === null || !current.hasSandbox ? undefined : bodyUrl(src, 'frame');
	if (safe === undefined) {
		frame.remove();
		return;
	}
	frame.setAttribute('src', safe);
	// Whatever the feed said: never allow-same-origin, never top navigation, never forms.
	frame.setAttribute('sandbox', IFRAME_SANDBOX);
	frame.setAttribute('referrerpolicy', 'no-referrer');
	frame.setAttribute('loading', 'lazy');
	for (const attr of ['srcdoc', 'allow', 'name', 'id', 'csp', 'credentialless']) {
		frame.removeAttribute(attr);
	}
	if (!frame.hasAttribute('title')) frame.setAttribute('title', m.article_embedded_content());
}

function fixMedia(el: Element, tag: string): void {
	const kind = tag === 'img' ? 'image' : 'media';
	const src = el.getAttribute('src');
	if (src !== null) setOrRemove(el, 'src', bodyUrl(src, kind));
	const poster = el.getAttribute('poster');
	// A poster loads by itself, as an image: through the proxy where the plugin signs images.
	if (poster !== null)
		setOrRemove(el, 'poster', bodyUrl(poster, current.signed ? 'image' : 'media'));

	if (tag === 'img') {
		const nothingLeft = !el.hasAttribute('src') && !el.hasAttribute('srcset');
		const hadSome = src !== null || srcsetDropped.has(el);
		if (current.signed && el.nodeName === 'IMG' && nothingLeft && hadSome) {
			el.setAttribute(UNAVAILABLE_ATTR, '');
		}
		el.setAttribute('loading', 'lazy');
		el.setAttribute('decoding', 'async');
		el.setAttribute('referrerpolicy', 'no-referrer');
	} else if (tag === 'video' || tag === 'audio') {
		el.setAttribute('controls', '');
		el.setAttribute('preload', 'none');
		el.removeAttribute('autoplay');
	}
}

function getPurifier(): DOMPurify {
	if (purifier) return purifier;
	const instance = createDOMPurify(window);
	// A dedicated instance: these hooks never affect another DOMPurify user in the app.
	instance.addHook('uponSanitizeElement', (node, data) => {
		// Belt and braces for has_sandbox off: the config already leaves iframe out of the allowlist.
		if (data.tagName === 'iframe' && !current.hasSandbox) node.parentNode?.removeChild(node);
	});
	instance.addHook('uponSanitizeAttribute', (el, data) => {
		// DOMPurify judges srcset as one URL and would drop it whole for one bad candidate:
		// filter the candidates first, so the good ones survive and the bad ones never reach it.
		if (data.attrName !== 'srcset') return;
		const kind = el.nodeName === 'VIDEO' || el.nodeName === 'AUDIO' ? 'media' : 'image';
		const safe = safeSrcset(data.attrValue, kind);
		if (safe === undefined) data.keepAttr = false;
		else data.attrValue = safe;
		if (safe === undefined) srcsetDropped.add(el);
	});
	instance.addHook('afterSanitizeAttributes', (el) => {
		const tag = el.nodeName.toLowerCase();
		if (tag === 'a') fixLink(el);
		else if (tag === 'iframe') fixFrame(el);
		else if (
			tag === 'img' ||
			tag === 'video' ||
			tag === 'audio' ||
			tag === 'source' ||
			tag === 'track'
		) {
			fixMedia(el, tag === 'source' && el.parentElement?.nodeName === 'PICTURE' ? 'img' : tag);
		}
	});
	purifier = instance;
	return instance;
}

/**
 * Sanitizes article HTML into an inert DocumentFragment ready to be appended to the page.
 * The fragment is never serialised and re-parsed (no mutation-XSS round trip).
 */
export function sanitizeArticle(html: string, options: SanitizeOptions = {}): DocumentFragment {
	const dompurify = getPurifier();
	const hasSandbox = options.hasSandbox ?? true;
	current = { base: usableBase(options.baseUrl), hasSandbox, signed: options.signedImages };
	try {
		// A `<frameset>` document has no body: DOMPurify answers null, which must render as nothing.
		const fragment: DocumentFragment | null = dompurify.sanitize(
			html,
			hasSandbox ? BASE_CONFIG : WITHOUT_IFRAMES
		);
		if (!fragment) return document.createDocumentFragment();
		markUnavailable(fragment);
		return fragment;
	} finally {
		current = IDLE;
		srcsetDropped = new WeakSet();
	}
}

/**
 * Each image the plugin did not sign (marked by fixMedia) becomes a line saying it is not available
 * through the reader's server, so the reader knows something is missing; a tracking pixel just goes.
 */
function markUnavailable(fragment: DocumentFragment): void {
	for (const img of fragment.querySelectorAll(`img[${UNAVAILABLE_ATTR}]`)) {
		const tiny = (value: string | null): boolean => value !== null && Number(value) <= 2;
		if (tiny(img.getAttribute('width')) || tiny(img.getAttribute('height'))) {
			img.remove();
			continue;
		}
		const line = document.createElement('span');
		line.className = IMAGE_UNAVAILABLE_CLASS;
		line.textContent = m.article_image_unavailable();
		const alt = img.getAttribute('alt')?.trim();
		if (alt) line.title = alt;
		img.replaceWith(line);
	}
}

/** The sanitized HTML as a string (tests and diagnostics; the renderer uses the fragment). */
export function sanitizeArticleToString(html: string, options: SanitizeOptions = {}): string {
	const holder = document.createElement('div');
	holder.append(sanitizeArticle(html, options));
	return holder.innerHTML;
}
