/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Page functions in this file run in the browser: they need the DOM's types whatever the program's lib.
/**
 * What differs by engine beyond the everyday path: hostile article HTML (no script runs in the
 * app's origin, every frame sandboxed without allow-same-origin), keyboard shortcuts (focus and key
 * events are the engine's own), and the phone layout (one pane at a time, 44 px touch targets).
 */
import { describe, expect, test } from 'vitest';
import { IFRAME_SANDBOX } from '../../src/lib/content/sanitize-policy';
import { contentViolations } from '../fixtures/hostile/invariants';
import { ENGINES } from './support/engines';
import { openFeed, serverArticle, signIn, useEngine, type EngineSession } from './support/session';
import { feedLink, find, click, headline, link, poll, waitFor } from './support/ui';

/** The title of the article on screen ('' when none is). */
function articleTitle(): string {
	return (document.getElementById('article-title')?.textContent ?? '').trim();
}

/** The article's title once it is another than `previous` ('' until then). */
function titleOtherThan(previous: string): string {
	const now = (document.getElementById('article-title')?.textContent ?? '').trim();
	return now !== previous ? now : '';
}

interface ContentReport {
	title: string;
	problems: string[];
	badFrames: string[];
	pwned: string[];
}

/** In the page, with the invariants' check passed in: what is wrong with the article shown. */
function reportArticle(
	check: (root: ParentNode, options: { iframesAllowed: boolean }) => string[],
	sandbox: string
): ContentReport {
	const content = document.querySelector('.article-content');
	const frames = [...document.querySelectorAll('main iframe')].map(
		(f) => f.getAttribute('sandbox') ?? '(none)'
	);
	return {
		title: (document.getElementById('article-title')?.textContent ?? '').trim(),
		problems: content ? check(content, { iframesAllowed: true }) : ['no content'],
		badFrames: frames.filter((s) => s !== sandbox),
		pwned: (window as unknown as { __pwnedCalls: string[] }).__pwnedCalls
	};
}

/** Both functions' own source, composed into one page function taking the sandbox value. */
const REPORT_SOURCE = `function (sandbox) { return (${reportArticle.toString()})(${contentViolations.toString()}, sandbox); }`;

/** Whether an earlier test of the file left the reader signed in (each test can run alone). */
async function signedIn(session: EngineSession): Promise<boolean> {
	return session.browser.evaluate(() => location.protocol.startsWith('http'));
}

describe.each(ENGINES)('%s', (engine) => {
	const session = useEngine(engine);

	test('keyboard: j/k move between articles, s stars on the server, ? opens the help', async () => {
		const { browser, client } = session;
		if (!(await signedIn(session))) await signIn(session);
		await click(browser, link('Reader'));
		await openFeed(session, /^Testbed International/);
		await click(browser, headline(/./));
		const first = await waitFor(browser, 'an article', articleTitle);
		await browser.press('j');
		const second = await waitFor(browser, 'the next article', titleOtherThan, first);
		// k steps back in the list as it is now (an article read on the way may have left an
		// unread-only list): another article than the second.
		await browser.press('k');
		const third = await waitFor(browser, 'the previous article', titleOtherThan, second);
		const starredBefore = (await serverArticle(client, third)).marked;
		await browser.press('s');
		await poll(
			'the star toggled on the server',
			async () => (await serverArticle(client, third)).marked !== starredBefore
		);
		expect(second).not.toBe(first);
		await browser.press('?');
		await waitFor(browser, 'the shortcut help', () =>
			[...document.querySelectorAll('dialog')].some(
				(d) => d.open && (d.textContent ?? '').includes('Next article')
			)
		);
		await browser.press('Escape');
		await waitFor(browser, 'the help closed', () =>
			[...document.querySelectorAll('dialog')].every((d) => !d.open)
		);
	});

	test('phone layout: one pane at a time, back link, 44 px touch targets', async () => {
		const { browser } = session;
		if (!(await signedIn(session))) await signIn(session);
		await browser.setViewport(390, 844);
		await click(browser, link('Reader'));
		// MiniBrowser's window cannot be narrower than its toolbar (447 px): still the phone layout,
		// which applies below 760 px (src/routes/(app)/+layout.svelte).
		await waitFor(browser, 'a phone-sized viewport', () => window.innerWidth <= 450);
		await find(browser, feedLink(/^Testbed Web Dev/));
		await click(browser, feedLink(/^Testbed Web Dev/));
		await waitFor(browser, 'the feed tree hidden', () => {
			const nav = document.querySelector('nav[aria-label="Feeds"]');
			return (
				nav === null || nav.getClientRects().length === 0 || nav.getBoundingClientRect().width === 0
			);
		});
		const back = await find(browser, link('Back'));
		const height = await browser.evaluate(
			(css: string) => document.querySelector(css)?.getBoundingClientRect().height ?? 0,
			back
		);
		expect(height).toBeGreaterThanOrEqual(44);
		const overflow = await browser.evaluate(
			() => document.documentElement.scrollWidth - window.innerWidth
		);
		expect(overflow, 'no horizontal scrolling').toBeLessThanOrEqual(0);
		await click(browser, link('Back'));
		await find(browser, feedLink(/^Testbed Web Dev/));
	});
	test('hostile articles: no script runs, every frame is sandboxed', async () => {
		const { browser } = session;
		if (!(await signedIn(session))) await signIn(session);
		await click(browser, link('Reader'));
		// Every script-running vector calls __pwned(name) (tests/fixtures/hostile): record the calls.
		await browser.evaluate(() => {
			const w = window as unknown as { __pwnedCalls: string[]; __pwned: (n: string) => void };
			w.__pwnedCalls = [];
			w.__pwned = (name: string) => w.__pwnedCalls.push(name);
		});
		await openFeed(session, /^Testbed Hostile HTML/);
		// One entry per article: distinct targets of the list's links.
		const titles = await browser.evaluate(() => [
			...new Set(
				[...document.querySelectorAll('[aria-label^="Headlines of"] a')].map((a) =>
					a.getAttribute('href')
				)
			)
		]);
		expect(titles.length).toBeGreaterThan(5);
		await click(browser, headline(/./));
		const seen: string[] = [];
		for (;;) {
			const title = await waitFor(browser, 'an article', articleTitle);
			await waitFor(
				browser,
				'the article content',
				() => document.querySelector('.article-content') !== null
			);
			const report = await browser.evaluateSource<ContentReport>(REPORT_SOURCE, IFRAME_SANDBOX);
			expect(report.problems, title).toEqual([]);
			expect(report.badFrames, title).toEqual([]);
			expect(report.pwned, title).toEqual([]);
			seen.push(title);
			if (seen.length === titles.length) break;
			await browser.press('j');
			await waitFor(browser, `the article after ${title}`, titleOtherThan, title);
		}
		expect(seen.length).toBe(titles.length);
	});
});
