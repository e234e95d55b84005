/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Page functions in this file run in the browser: they need the DOM's types whatever the program's lib.
/**
 * Opening a feed from the tree, for every harness that drives a browser: the Playwright specs
 * (tests/e2e/reader-support.ts `openFeed`, through tests/support/playwright-page.ts), the engines
 * suite (Firefox, WebKit) and the chaos harness. One routine, so all wait for the same signs: the
 * list named after the feed with its rows (the previous screen's list may still be there for a
 * moment), and, when asked, the server's answer in (`aria-busy`: the list shows the device's copy
 * first, which may hold fewer rows or another order).
 */
import type { EngineBrowser } from '../engines/support/engines';
import { click, feedLink, poll } from '../engines/support/ui';

export interface OpenFeedOptions {
	/** Also waits until the list shows the server's answer (or the failure's, offline). */
	answered?: boolean;
	/** How long the link, the rows and the answer may each take (ms). */
	timeoutMs?: number;
	/**
	 * Adds the page's state and the engine's log to a time-out's error (the default). The chaos
	 * harness does not: it reads no page it may have cut off mid-fault.
	 */
	report?: boolean;
}

/**
 * Clicks the tree's feed whose name `title` matches (a pattern: a plain name matches as a part of
 * the link's name, as Playwright's `getByRole` does) and waits for its list's rows.
 */
export async function openFeedIn(
	browser: EngineBrowser,
	title: RegExp,
	{ answered = false, timeoutMs = 15_000, report = true }: OpenFeedOptions = {}
): Promise<void> {
	const reporter = report ? browser : undefined;
	await click(browser, feedLink(title), timeoutMs);
	await poll(
		`the rows of ${String(title)}`,
		() => browser.evaluate(rowsShownInPage, title.source, title.flags),
		reporter,
		timeoutMs
	);
	if (answered) await listAnsweredIn(browser, { timeoutMs, report });
}

/** Waits until the open list shows the server's answer (or the failure's, offline). */
export async function listAnsweredIn(
	browser: EngineBrowser,
	{ timeoutMs = 15_000, report = true }: Pick<OpenFeedOptions, 'timeoutMs' | 'report'> = {}
): Promise<void> {
	await poll(
		'the list answered',
		() =>
			browser.evaluate(
				() => document.querySelector('section.list-pane')?.getAttribute('aria-busy') === 'false'
			),
		report ? browser : undefined,
		timeoutMs
	);
}

/** A plain name as the pattern `openFeedIn` takes: a part of the name, any letter case. */
export function namePattern(name: string | RegExp): RegExp {
	return name instanceof RegExp ? name : new RegExp(escapeRegExp(name), 'i');
}

/** `text` as a pattern that matches exactly it. */
export function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** In the page: a list named after the feed (`Headlines of …`) shows a row or a link. */
function rowsShownInPage(source: string, flags: string): boolean {
	const title = new RegExp(source, flags);
	return [...document.querySelectorAll('[aria-label^="Headlines of "]')].some(
		(list) =>
			title.test((list.getAttribute('aria-label') ?? '').slice('Headlines of '.length)) &&
			list.querySelector('[data-article-id], a') !== null
	);
}
