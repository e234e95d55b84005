/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Page functions in this file run in the browser: they need the DOM's types whatever the program's lib.
/**
 * Finding things the way a reader does (a button by its name, a link by its text) and waiting for
 * the page to reach a state, for both engines alike. The elements are found by a script in the page
 * and then clicked or typed into with the engine's real input (WebDriver / BiDi), so focus, events
 * and default actions are the engine's own.
 */
import type { EngineBrowser } from './engines';

export interface Query {
	/** The kind of element, as CSS (`button`, `nav[aria-label="Feeds"] a`, `input`…). */
	css: string;
	/** Its accessible name: exact text, or a pattern. Omitted: any name. */
	name?: string | RegExp;
}

interface PageQuery {
	css: string;
	name?: string;
	pattern?: { source: string; flags: string };
	mark: string;
}

let marks = 0;

function toPageQuery(query: Query): PageQuery {
	marks += 1;
	const { css, name } = query;
	const mark = String(marks);
	if (name instanceof RegExp)
		return { css, pattern: { source: name.source, flags: name.flags }, mark };
	return name === undefined ? { css, mark } : { css, name, mark };
}

/**
 * In the page: the first visible element matching the query gets `data-engines-mark`; true when
 * found. The name is a simplified accessible name (aria-label, aria-labelledby, labels, text
 * outside aria-hidden).
 */
function markInPage(query: PageQuery): boolean {
	const nameOf = (element: Element): string => {
		const aria = element.getAttribute('aria-label');
		if (aria) return aria.trim();
		const by = element.getAttribute('aria-labelledby');
		if (by)
			return by
				.split(/\s+/)
				.map((id) => document.getElementById(id)?.textContent ?? '')
				.join(' ')
				.replace(/\s+/g, ' ')
				.trim();
		const labels = (element as HTMLInputElement).labels;
		if (labels && labels.length > 0)
			return [...labels]
				.map((label) => label.textContent ?? '')
				.join(' ')
				.replace(/\s+/g, ' ')
				.trim();
		// Text hidden from assistive technology is no part of the name (a feed's icon glyph).
		const copy = element.cloneNode(true) as Element;
		for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
		return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
	};
	const visible = (element: Element): boolean => {
		if (element.getClientRects().length === 0) return false;
		const style = getComputedStyle(element);
		return style.visibility !== 'hidden';
	};
	const pattern = query.pattern ? new RegExp(query.pattern.source, query.pattern.flags) : undefined;
	for (const element of document.querySelectorAll(query.css)) {
		if (!visible(element)) continue;
		const name = nameOf(element);
		if (query.name !== undefined && name !== query.name) continue;
		if (pattern && !pattern.test(name)) continue;
		element.setAttribute('data-engines-mark', query.mark);
		return true;
	}
	return false;
}

function describe(query: Query): string {
	return `${query.css}${query.name === undefined ? '' : ` named ${String(query.name)}`}`;
}

/**
 * Polls `fn` in the page until it returns a truthy value (which is returned). Polling, like
 * Playwright's expect.poll: neither engine's driver can wait on an arbitrary page condition.
 * `fn` must return a JSON-able value: a DOM node comes back as nothing from Firefox.
 */
export async function waitFor<R, A extends unknown[]>(
	browser: EngineBrowser,
	what: string,
	fn: (...args: A) => R | Promise<R>,
	...args: A
): Promise<NonNullable<R>> {
	return poll(what, () => browser.evaluate(fn, ...args), browser);
}

/** Polls `read` (in Node: the server, the harness) until it returns a truthy value. */
export async function poll<R>(
	what: string,
	read: () => Promise<R>,
	browser?: EngineBrowser,
	timeout = 15_000
): Promise<NonNullable<R>> {
	const deadline = Date.now() + timeout;
	let last: unknown;
	for (;;) {
		try {
			const value = await read();
			if (value) return value;
			last = value;
		} catch (error) {
			last = error;
		}
		if (Date.now() > deadline) {
			const log = browser ? await failureReport(browser) : '';
			throw new Error(`timed out waiting for ${what} (last: ${String(last)})${log}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

/** Where the page is and what it shows, and the engine's last log lines. */
async function failureReport(browser: EngineBrowser): Promise<string> {
	const page = await browser
		.evaluate(() => {
			// Whether this document is the one the test worked in: a reload drops the marks `find`
			// left, and its navigation entry says how it was loaded and how long ago.
			const nav = performance.getEntriesByType('navigation')[0] as
				PerformanceNavigationTiming | undefined;
			const facts = `marks ${document.querySelectorAll('[data-engines-mark]').length}, loaded by ${nav?.type ?? '?'} ${Math.round(performance.now())} ms ago, worker ${navigator.serviceWorker?.controller?.state ?? 'none'}`;
			// The open article apart: the page's text is cut before it (the tree comes first).
			const article = document.querySelector('article');
			const articleText = article
				? `\n--- article: ${article.innerText.slice(0, 300)}\n--- its buttons: ${[
						...(article.parentElement ?? article).querySelectorAll('button')
					]
						.map((b) => b.getAttribute('aria-label') ?? b.textContent?.trim() ?? '')
						.join(' | ')}`
				: '\n--- no article';
			const focused = document.activeElement;
			const focus = `\n--- focus: ${focused?.tagName ?? 'none'} ${(focused?.textContent ?? '').trim().slice(0, 80)}`;
			// A page with no text at all: its markup says whether the app drew anything.
			const text = document.body.innerText.trim();
			const shown = text
				? text.slice(0, 800)
				: `(no text) ${document.body.innerHTML.slice(0, 800)}`;
			return `${location.href} (${facts})\n${shown}${articleText}${focus}`;
		})
		.catch((error: unknown) => `(page unreadable: ${String(error)})`);
	return `\n--- ${browser.name} page: ${page}\n--- log (last 30)\n${browser.log.slice(-30).join('\n')}`;
}

/** Waits for the element and returns a selector that names exactly it. */
export async function find(browser: EngineBrowser, query: Query): Promise<string> {
	const pageQuery = toPageQuery(query);
	await waitFor(browser, describe(query), markInPage, pageQuery);
	return `[data-engines-mark="${pageQuery.mark}"]`;
}

export async function isPresent(browser: EngineBrowser, query: Query): Promise<boolean> {
	return browser.evaluate(markInPage, toPageQuery(query));
}

/**
 * Runs `act` on what the query finds. Found again and done again, for `timeoutMs`, when it went
 * away between being found and acted on: the tree and the list are drawn anew as a sync's answers
 * arrive (the page syncs every second in some tests), and the sign-in form was seen replaced just
 * after its page loaded (WebKit, smart.spec.ts); the driver then has no such element, a stale one,
 * or one without a box.
 */
async function onFound(
	browser: EngineBrowser,
	query: Query,
	act: (css: string) => Promise<void>,
	timeoutMs: number
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		try {
			await act(await find(browser, query));
			return;
		} catch (error) {
			if (Date.now() > deadline || !GONE.test(String(error))) throw error;
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	}
}

/**
 * The drivers' words for an element drawn anew between `find` and the action (WebKit's driver
 * also said "not interactable" for a feed link while the tree was being drawn again, once;
 * Playwright says "not attached to the DOM"; WebKit's driver names a node gone since it was found
 * "StaleElementReferenceError: Node with identifier … was not found", seen in CI 2026-11-27).
 */
const GONE =
	/not clickable|not an Element|NoSuchElement|no such element|No element found|stale element|StaleElementReference|detached|not attached|NotInteractable/i;

/**
 * A real click on what the query finds, once its box has stopped moving: the driver clicks at the
 * box's centre as it measured it, and rows moved by the list's late answers (a sync, the server's
 * rows replacing the cached ones) put another control there. Seen in Firefox on a loaded machine:
 * a click meant for a row's star opened a row menu instead.
 */
export function click(browser: EngineBrowser, query: Query, timeoutMs = 5_000): Promise<void> {
	return onFound(
		browser,
		query,
		async (css) => {
			await waitFor(browser, `${describe(query)} to stop moving`, boxStillInPage, css);
			await browser.click(css);
		},
		timeoutMs
	);
}

/**
 * True once the element's box is where it was two animation frames before, or once the element is
 * gone (drawn anew: the click then fails as such, and `onFound` finds the new one).
 */
async function boxStillInPage(selector: string): Promise<boolean> {
	const box = (): string => {
		const rect = document.querySelector(selector)?.getBoundingClientRect();
		return rect ? `${rect.x},${rect.y},${rect.width},${rect.height}` : 'gone';
	};
	const frame = (): Promise<unknown> => new Promise((resolve) => requestAnimationFrame(resolve));
	const before = box();
	await frame();
	await frame();
	const after = box();
	return after === 'gone' || after === before;
}

/**
 * Types `text` in the field the query finds, once it takes input, as a reader would: a form keeps
 * a field disabled while what it edits loads (the muted words; WebKit's driver refused the typing
 * with InvalidElementStateError). Typed again whole if the field was drawn anew.
 */
export function fill(browser: EngineBrowser, query: Query, text: string): Promise<void> {
	return onFound(
		browser,
		query,
		async (css) => {
			await waitFor(
				browser,
				`${describe(query)} to take input`,
				(selector: string) =>
					document.querySelector<HTMLInputElement | HTMLTextAreaElement>(selector)?.disabled !==
					true,
				css
			);
			await browser.fill(css, text);
		},
		5_000
	);
}

export const button = (name: string | RegExp): Query => ({ css: 'button', name });
export const link = (name: string | RegExp): Query => ({ css: 'a', name });
export const feedLink = (name: string | RegExp): Query => ({
	css: 'nav[aria-label="Feeds"] a',
	name
});
export const headline = (name: string | RegExp): Query => ({
	css: '[aria-label^="Headlines of"] a',
	name
});
export const input = (name: string | RegExp): Query => ({ css: 'input, textarea', name });

/** The text of the first element matching `css` (empty when none). */
export function textOf(browser: EngineBrowser, css: string): Promise<string> {
	return browser.evaluate(
		(selector: string) => document.querySelector(selector)?.textContent ?? '',
		css
	);
}
