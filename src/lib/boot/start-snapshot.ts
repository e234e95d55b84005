/**
 * The page's half of the start snapshot (see snapshot-contract.ts): after a list screen has
 * rendered and settled, and when the app is hidden, an inert copy of the screen is written to Cache
 * Storage; at the next start the service worker puts it into the shell, and `releaseSnapshot`
 * (snapshot-release.ts) removes it once the app's own rows are on screen. Loaded after the first
 * screen (hooks.client.ts): none of this is on a start's path.
 *
 * The copy keeps only an allowlist of elements and attributes: text, layout classes, the app's own
 * links. Images become empty boxes of the same class, and anything that could load, run or point
 * elsewhere (scripts, frames, media, forms' values, foreign links, url() in styles) is dropped.
 */
import { shownAccount } from '$lib/db/account';
import { settleTimer } from '$lib/timing/settle';
import {
	inertStyle,
	ROOT_ATTRIBUTES,
	SNAPSHOT_ACCOUNT_HEADER,
	SNAPSHOT_CACHE,
	SNAPSHOT_ELEMENT_ID,
	SNAPSHOT_FOR_HEADER,
	SNAPSHOT_PATH,
	SNAPSHOT_ROOT_HEADER
} from './snapshot-contract';

/** A list screen without an article open: `/feed/-4`, `/cat/3`, `/tag/linux`. */
const LIST_SCREEN = /^\/(feed|cat|tag)\/[^/]+\/?$/;
/** Quiet time after the screen last changed before it is copied. */
const SETTLE_MS = 1500;
/**
 * At most this long after a change the screen is copied even if it never goes quiet: a big
 * account's first sync keeps the status line changing for minutes, and a screen copied only when
 * the app is hidden is lost when the app is closed outright.
 */
const MAX_WAIT_MS = 5000;
/** The app's class for words only a screen reader says (app.css). */
const SPOKEN_ONLY = 'visually-hidden';
/** A copy larger than this is not kept (a huge list should not slow every start). */
const MAX_SNAPSHOT_CHARS = 200_000;

const KEEP = new Set(
	(
		'div span nav header main section aside footer article ul ol li a h1 h2 h3 h4 h5 h6 p time ' +
		'button strong em small b i u s label kbd abbr mark br hr input select option details ' +
		'summary fieldset legend output progress meter dl dt dd figure figcaption blockquote code pre ' +
		'sup sub svg g path circle rect line polyline polygon ellipse'
	).split(' ')
);
/** Kept as an empty box with its class and size, so the layout does not move. */
const AS_BOX = new Set(['img', 'picture', 'video', 'audio', 'canvas', 'iframe', 'object', 'embed']);
const SVG_ATTRIBUTES = new Set(
	(
		'viewbox d fill stroke stroke-width stroke-linecap stroke-linejoin fill-rule clip-rule points ' +
		'x y x1 y1 x2 y2 cx cy r rx ry width height transform xmlns'
	).split(' ')
);
/** ARIA attributes that name other elements by id: ids are not kept. */
const ARIA_REFERENCES = new Set([
	'aria-labelledby',
	'aria-describedby',
	'aria-controls',
	'aria-owns',
	'aria-activedescendant',
	'aria-details',
	'aria-errormessage',
	'aria-flowto'
]);
const PLAIN_ATTRIBUTES = new Set([
	'class',
	'role',
	'title',
	'datetime',
	'hidden',
	'lang',
	'dir',
	'placeholder',
	'disabled'
]);

function keepAttribute(element: Element, name: string, value: string, svg: boolean): boolean {
	if (PLAIN_ATTRIBUTES.has(name)) return true;
	if (name.startsWith('aria-')) return !ARIA_REFERENCES.has(name);
	if (name.startsWith('data-')) return value.length <= 200;
	if (name === 'style') return inertStyle(value);
	if (name === 'type') return element.localName === 'input' || element.localName === 'button';
	if (name === 'href') return element.localName === 'a' && ownOrigin(value);
	return svg && SVG_ATTRIBUTES.has(name);
}

/**
 * A link to the app's own origin, as the browser will read it: by the URL parser, not by its
 * text (`/\evil.test/x` and `/<tab>/evil.test` are other hosts though they start with one slash).
 */
function ownOrigin(href: string): boolean {
	try {
		return new URL(href, location.href).origin === location.origin;
	} catch {
		return false;
	}
}

/**
 * Whether an element of the live screen shows anything at start: not when it is not rendered
 * (`display: none`: closed menus, hidden panes) or lies wholly outside the window (rows and feeds
 * past the fold, or scrolled out above it). Leaving those out keeps the copy to what the first frame
 * paints, so a start parses and lays out a few dozen rows, not a whole tree of a thousand feeds.
 */
export function onScreen(element: Element): boolean {
	if (element.getClientRects().length === 0) {
		// No boxes: `display: none`, or `display: contents` whose children have boxes.
		return getComputedStyle(element).display === 'contents';
	}
	const box = element.getBoundingClientRect();
	// Scrolled out above (a feed tree scrolled down): left out too, so the copy's pane, which
	// starts unscrolled, shows the rows the reader saw. A box of no height may hold positioned rows.
	return box.top < window.innerHeight && (box.height === 0 || box.bottom > 0);
}

/**
 * An inert copy of `source`'s content, as HTML; `doc` makes the new nodes (the live document).
 * `shown` leaves out elements (and their content) that the first frame would not paint.
 */
export function inertCopy(
	source: Element,
	doc: Document,
	shown: (element: Element) => boolean = () => true
): string {
	const container = doc.createElement('div');
	const copy = (from: Node, into: Node): void => {
		for (const child of from.childNodes) {
			if (child.nodeType === 3) {
				into.appendChild(doc.createTextNode(child.textContent ?? ''));
				continue;
			}
			if (child.nodeType !== 1) continue;
			const element = child as Element;
			if (element.id === SNAPSHOT_ELEMENT_ID || !shown(element)) continue;
			// Text for assistive technology only: the copy is hidden from it (aria-hidden) and paints
			// none of it, and a start lays out every element it parses: dropped, the copy costs less.
			if (element.classList.contains(SPOKEN_ONLY)) continue;
			const name = element.localName;
			const svg = element.namespaceURI === 'http://www.w3.org/2000/svg';
			if (AS_BOX.has(name)) {
				const box = doc.createElement('span');
				for (const attribute of ['class', 'style'] as const) {
					const value = element.getAttribute(attribute);
					if (value !== null && keepAttribute(box, attribute, value, false)) {
						box.setAttribute(attribute, value);
					}
				}
				into.appendChild(box);
				continue;
			}
			if (!KEEP.has(name)) continue;
			const made = svg ? doc.createElementNS(element.namespaceURI, name) : doc.createElement(name);
			for (const { name: attribute, value } of element.attributes) {
				if (keepAttribute(element, attribute.toLowerCase(), value, svg)) {
					made.setAttribute(attribute, value);
				}
			}
			into.appendChild(made);
			copy(element, made);
		}
	};
	copy(source, container);
	return container.innerHTML;
}

/** The app's part of the page: what SvelteKit renders into (app.html's wrapper in `<body>`). */
function appRoot(): Element | null {
	return document.querySelector('body > div[style]');
}

function atTop(root: Element): boolean {
	for (const viewport of root.querySelectorAll('.viewport, .list-pane')) {
		if (viewport.scrollTop > 1) return false;
	}
	return true;
}

/** The app path of this page (the base removed), or undefined off a list screen. */
function listScreen(basePath: string): string | undefined {
	const path = location.pathname.startsWith(basePath)
		? location.pathname.slice(basePath.length) || '/'
		: location.pathname;
	return LIST_SCREEN.test(path) ? path : undefined;
}

/**
 * Copies the screen when it is a list at its top, with headlines, for a signed-in account; a copy
 * that finishes after the account changed is deleted again.
 */
export async function captureSnapshot(basePath: string): Promise<boolean> {
	if (typeof caches === 'undefined') return false;
	const account = shownAccount();
	const path = listScreen(basePath);
	const root = appRoot();
	if (!account || !path || !root) return false;
	if (!root.querySelector('.headline[data-article-id]') || !atTop(root)) return false;
	const html = inertCopy(root, document, onScreen);
	if (html.length > MAX_SNAPSHOT_CHARS) return false;
	const rootAttributes: Record<string, string> = {};
	for (const name of ROOT_ATTRIBUTES) {
		const value = document.documentElement.getAttribute(name);
		if (value !== null && (name !== 'style' || inertStyle(value))) rootAttributes[name] = value;
	}
	const key = `${basePath}${SNAPSHOT_PATH}`;
	try {
		const cache = await caches.open(SNAPSHOT_CACHE);
		await cache.put(
			key,
			new Response(html, {
				headers: {
					'content-type': 'text/html; charset=utf-8',
					[SNAPSHOT_FOR_HEADER]: `${basePath}${path}`,
					[SNAPSHOT_ACCOUNT_HEADER]: account,
					[SNAPSHOT_ROOT_HEADER]: JSON.stringify(rootAttributes)
				}
			})
		);
		// Signed out (or another account) while it was written, or the reader moved on (a start at
		// `/` resumes where they are now: state/resume.ts): it must not outlive that.
		if (shownAccount() !== account || listScreen(basePath) !== path || !atTop(root)) {
			await caches.delete(SNAPSHOT_CACHE);
		}
		return true;
	} catch {
		// Storage full or unavailable: the next start is simply not instant.
		return false;
	}
}

/**
 * Keeps the snapshot current: a copy once the screen has been quiet for a moment after a change
 * (or has kept changing for a few seconds), and one when the app is hidden (the screen the reader
 * left is the one to show next).
 */
export function keepSnapshot(basePath: string): void {
	if (typeof caches === 'undefined' || typeof MutationObserver === 'undefined') return;
	const capture = (): void => {
		const run = (): void => void captureSnapshot(basePath);
		if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2000 });
		else run();
	};
	const root = appRoot();
	if (!root) return;
	const timer = settleTimer(capture, { quietMs: SETTLE_MS, maxWaitMs: MAX_WAIT_MS });
	new MutationObserver(() => timer.changed()).observe(root, {
		childList: true,
		subtree: true,
		characterData: true
	});
	document.addEventListener('visibilitychange', () => {
		if (document.visibilityState === 'hidden') void captureSnapshot(basePath);
	});
}
