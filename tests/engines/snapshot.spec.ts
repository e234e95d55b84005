/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Page functions in this file run in the browser: they need the DOM's types whatever the program's lib.
/**
 * The start snapshot in Firefox and WebKit: the worker keeps the last list screen in Cache Storage
 * and answers the next start of that list with it, and the app takes over from it (the page marks
 * `app:snapshot-released`). Another list's start gets the plain shell. Sign-out deletes it.
 */
import { describe, expect, test } from 'vitest';
import { ENGINES } from './support/engines';
import { openFeed, signIn, useEngine, waitSyncIdle } from './support/session';
import { button, click, poll, waitFor } from './support/ui';

describe.each(ENGINES)('%s', (engine) => {
	const session = useEngine(engine);

	test('a start of the last list begins with its snapshot; sign-out deletes it', async () => {
		const { browser, server } = session;
		await signIn(session);
		await openFeed(session, /^Testbed Tech News/);
		const path = await browser.evaluate(() => location.pathname);
		expect(path).toMatch(/^\/feed\/\d+$/);

		const kept = () =>
			browser.evaluate(async () => {
				if (!(await caches.has('start-snapshot'))) return null;
				const copy = await (await caches.open('start-snapshot')).match('/__start-snapshot');
				return copy?.headers.get('x-snapshot-for') ?? null;
			});
		await poll('the snapshot of this list', async () => (await kept()) === path, browser, 20_000);

		await waitSyncIdle(browser);
		await browser.reload();
		await waitFor(
			browser,
			'the headlines',
			() =>
				document.querySelector('[aria-label^="Headlines of "] .headline[data-article-id]') !== null
		);
		await waitFor(
			browser,
			'the app taking over from the snapshot',
			() => performance.getEntriesByName('app:snapshot-released').length === 1
		);
		expect(await browser.evaluate(() => document.getElementById('start-snapshot'))).toBeNull();

		// Another list starts from the plain shell.
		await waitSyncIdle(browser);
		await browser.goto(`${server.url}feed/-1`);
		await waitFor(
			browser,
			'the starred list',
			() => document.querySelector('[aria-label^="Headlines of "]') !== null
		);
		expect(
			await browser.evaluate(() => performance.getEntriesByName('app:snapshot-released').length)
		).toBe(0);

		await click(browser, button('Sign out'));
		await waitFor(browser, 'the sign-in page', () => location.pathname.endsWith('/login'));
		expect(await kept()).toBeNull();
	});
});
