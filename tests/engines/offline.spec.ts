/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Page functions in this file run in the browser: they need the DOM's types whatever the program's lib.
/**
 * Offline in Firefox and WebKit, neither of which has Background Sync: a change made while the
 * server is unreachable waits in the outbox (across a reload), reaches the server once it is back
 * while the app is open, and the reader is told changes go only while the app is open. Then the
 * sync, which runs by itself without Background Sync, and a start with nothing reachable: cached
 * lists and articles from the worker.
 */
import { describe, expect, test } from 'vitest';
import { ENGINES } from './support/engines';
import {
	openFeed,
	serverArticle,
	signIn,
	useEngine,
	waitSyncedOnce,
	waitSyncIdle
} from './support/session';
import { button, click, headline, link, poll, waitFor } from './support/ui';

const TITLE = 'Tech news 05';

describe.each(ENGINES)('%s', (engine) => {
	const session = useEngine(engine);

	test('a star made while the server is down reaches it after a reload, without Background Sync', async () => {
		const { browser, server, client } = session;
		await signIn(session);
		await openFeed(session, /^Testbed Tech News/);
		const [full] = await browser.evaluate(
			(prefix: string) =>
				[...document.querySelectorAll('button[aria-label^="Star “"]')]
					.map((b) => (b.getAttribute('aria-label') ?? '').slice('Star “'.length, -1))
					.filter((title) => title.startsWith(prefix)),
			TITLE
		);
		expect(full).toBeDefined();
		const title = full ?? '';
		expect((await serverArticle(client, title)).marked).toBe(false);

		server.reachability = 'api-down';
		await click(browser, button(`Star “${title}”`));
		await waitFor(browser, 'the pending badge', () =>
			/^1 change\b/.test(
				(document.querySelector('[data-testid="pending-count"]')?.textContent ?? '')
					.replace(/\s+/g, ' ')
					.trim()
			)
		);

		// The outbox survives a reload while the server is still down.
		await browser.reload();
		await waitFor(browser, 'the pending badge after the reload', () =>
			/^1 change\b/.test(
				(document.querySelector('[data-testid="pending-count"]')?.textContent ?? '')
					.replace(/\s+/g, ' ')
					.trim()
			)
		);
		// Where the reader looks at waiting changes, the app says when they will go.
		await click(browser, link('Settings'));
		await waitFor(browser, 'the note that changes go while the app is open', () =>
			document
				.querySelector('[aria-label="Offline changes"]')
				?.textContent?.includes('while the app is open')
		);
		expect((await serverArticle(client, title)).marked).toBe(false);

		// Back online: the open page sends it by itself (its retry), no sync event, no reload.
		server.reachability = 'online';
		await poll(
			'the star on the server',
			async () => (await serverArticle(client, title)).marked,
			browser,
			45_000
		);
		await waitFor(
			browser,
			'no change waiting',
			() => document.querySelector('[data-testid="pending-count"]') === null
		);
	});

	test('articles the sync kept by itself (no Background Sync here) open with nothing reachable', async () => {
		const { browser, server } = session;
		await browser.goto(`${server.url}settings`);
		// Nobody asks: the page syncs once its first screen is shown, without Background Sync.
		await waitSyncedOnce(browser);
		await waitSyncIdle(browser);
		await browser.goto(server.url);
		await openFeed(session, /^Testbed Web Dev/);
		const feedUrl = await browser.evaluate(() => location.href);

		server.reachability = 'down';
		await waitSyncIdle(browser);
		await browser.goto(feedUrl);
		await waitFor(
			browser,
			'cached headlines from the worker',
			() => document.querySelector('[aria-label^="Headlines of"] a') !== null
		);
		await click(browser, headline(/Web dev 03/));
		await waitFor(
			browser,
			'the cached article body',
			() => (document.querySelector('.article-content')?.textContent ?? '').trim().length > 20
		);
		server.reachability = 'online';
	});
});
