/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Page functions in this file run in the browser: they need the DOM's types whatever the program's lib.
/**
 * Issue 30's device-made features, once per engine and kept short: Today (a list this device makes
 * from its cache, never asked of the server) lists the article dated today and not the old one;
 * a rule made in Settings → Rules stars an article that arrives by the page's own sync, on the
 * server, and its "Articles it matched" lists it. Word splitting (Unicode property escapes),
 * IndexedDB cursors and Web Locks are the engine's here.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { feedXml, ServedFeed, type FeedItem } from '../e2e/support/served-feed';
import { ENGINES } from './support/engines';
import { serverArticle, signIn, useEngine } from './support/session';
import {
	button,
	click,
	feedLink,
	fill,
	headline,
	input,
	isPresent,
	link,
	poll,
	waitFor
} from './support/ui';

const FEED = 'Testbed Engines Today';
const served = new ServedFeed('engines-today.xml');
const TODAY = 'Harbour lights switched on';
const OLD = 'Last week at the harbour';
const NEW = 'Ferry strike ends today';

afterAll(() => served.remove());

describe.each(ENGINES)('%s', (engine) => {
	const session = useEngine(engine);

	test('Today lists what is dated today; a rule stars an arriving article and lists it', async () => {
		const { browser, server, client } = session;
		const now = Date.now();
		const midnight = new Date(now).setHours(0, 0, 0, 0);
		const items: FeedItem[] = [
			{ title: TODAY, guid: 'eng-today', date: new Date(Math.max(midnight + 1000, now - 60_000)) },
			{ title: OLD, guid: 'eng-old', date: new Date(now - 7 * 24 * 3600_000) }
		];
		const feedId = await served.subscribe(client, feedXml(FEED, items));
		// The page syncs every second (as the e2e rules test), so the arriving article is not waited for.
		await browser.goto(`${server.url}login`);
		await browser.evaluate(() => localStorage.setItem('reader.syncIntervalMs', '1000'));
		await signIn(session);

		// Today's count shows once the sync has kept today's article.
		await waitFor(browser, 'Today’s count', () =>
			[...document.querySelectorAll('nav[aria-label="Feeds"] a')].some(
				(a) => a.textContent?.includes('Today') && a.querySelector('.count') !== null
			)
		);
		await click(browser, feedLink(/^Today/));
		await waitFor(browser, 'the Today list', () =>
			document.querySelector('h1')?.textContent?.includes('Today')
		);
		await poll(
			'Today lists the article of today',
			() => isPresent(browser, headline(/Harbour lights/)),
			browser
		);
		expect(await isPresent(browser, headline(/Last week/))).toBe(false);

		await click(browser, link('Settings'));
		await click(browser, link('Rules for new articles'));
		await fill(browser, input('When an article matches'), 'title:ferry');
		await click(browser, input('Star'));
		await click(browser, button('Add rule'));
		await waitFor(browser, 'the rule in the list', () =>
			document
				.querySelector('ul[aria-labelledby="rules-list-heading"]')
				?.textContent?.includes('title:ferry')
		);

		await served.fetch(
			feedId,
			feedXml(FEED, [...items, { title: NEW, guid: 'eng-new', date: new Date() }])
		);
		await poll(
			'the rule’s star on the server',
			async () => (await serverArticle(client, NEW)).marked,
			browser,
			30_000
		);
		expect((await serverArticle(client, TODAY)).marked).toBe(false);

		await click(browser, link('Articles matched by title:ferry'));
		const listed = await waitFor(browser, 'the rule’s list', () => {
			const rows = [...document.querySelectorAll('ul.hits li')].map((li) => li.textContent ?? '');
			return rows.length > 0 ? rows : undefined;
		});
		expect(listed).toHaveLength(1);
		expect(listed[0]).toContain(NEW);
	});
});
