/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Page functions in this file run in the browser: they need the DOM's types whatever the program's lib.
/**
 * Muted words in each engine (the filter is the app's own code, but its word splitting uses
 * Unicode property escapes and normalisation, which are the engine's), and what the alerts screen
 * says about notifications there: an engine without the Notification API must say so plainly
 * instead of offering a button that cannot work.
 */
import { describe, expect, test } from 'vitest';
import { ENGINES } from './support/engines';
import { openFeed, signIn, useEngine } from './support/session';
import { button, click, fill, headline, input, isPresent, link, waitFor } from './support/ui';

describe.each(ENGINES)('%s', (engine) => {
	const session = useEngine(engine);

	test('a muted word hides its headlines ("3 hidden"); the alerts screen tells what notifications can do here', async () => {
		const { browser, server } = session;
		await signIn(session);
		await browser.goto(`${server.url}settings/alerts`);
		const permission = await waitFor(browser, 'the notification state', () => {
			const box = document.querySelector('[data-testid="notification-permission"]');
			return box?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
		});
		const hasNotifications = await browser.evaluate(() => typeof Notification !== 'undefined');
		if (hasNotifications)
			expect(permission).toMatch(/need your permission|are allowed|are blocked/);
		else expect(permission).toContain('This browser cannot show notifications');
		if (process.env.ENGINES_DEBUG) console.log(engine, 'notifications:', permission);

		await fill(browser, input(/^Muted words/), 'databases');
		await click(browser, button('Save muted words'));
		await waitFor(browser, 'saved', () =>
			document.body.textContent?.includes('Saved: 1 muted word')
		);

		await click(browser, link('← Settings'));
		await click(browser, link('Reader'));
		await openFeed(session, /^Testbed Tech News/);
		const line = await waitFor(
			browser,
			'the muted line',
			() => document.querySelector('[data-testid="muted-line"]')?.textContent ?? ''
		);
		expect(line.replace(/\s+/g, ' ')).toContain('3 hidden by muted words');
		expect(await isPresent(browser, headline(/Tech news 02/))).toBe(true);
		expect(await isPresent(browser, headline(/Tech news 01/))).toBe(false);
		await click(browser, button('Show them'));
		await waitFor(browser, 'the muted rows shown', () =>
			[...document.querySelectorAll('[aria-label^="Headlines of"] a')].some((a) =>
				a.textContent?.includes('Tech news 01')
			)
		);
	});
});
