/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Page functions in this file run in the browser: they need the DOM's types whatever the program's lib.
/**
 * The automatic sync in Firefox and WebKit, which have neither Background Sync nor Periodic
 * Background Sync: the page's own triggers (start, back online, visible, every few minutes) fill
 * the offline copy by themselves. Proved with a feed the reader never opened: with nothing
 * reachable, its list and an article open from what the sync kept, and the search box finds its
 * articles in the local index. See docs/sync.md and docs/engines.md.
 */
import { describe, expect, test } from 'vitest';
import { ENGINES } from './support/engines';
import { openFeed, signIn, useEngine, waitSyncedOnce } from './support/session';
import { button, click, fill, headline, input, waitFor } from './support/ui';

describe.each(ENGINES)('%s', (engine) => {
	const session = useEngine(engine);

	test('the sync fills the offline copy by itself; a feed never opened reads and searches offline', async () => {
		const { browser, server } = session;
		await signIn(session);
		// The worker's sync events do not exist here: the degradation the page's triggers cover.
		const offered = await browser.evaluate(async () => {
			const registration = await navigator.serviceWorker.ready;
			return { sync: 'sync' in registration, periodic: 'periodicSync' in registration };
		});
		expect(offered).toEqual({ sync: false, periodic: false });

		// Nobody asks: the page syncs once its first screen is shown.
		await click(browser, { css: 'a', name: 'Settings' });
		await waitSyncedOnce(browser);

		// Nothing reachable: the app from the worker, the list and the article from the sync's copy.
		server.reachability = 'down';
		try {
			await browser.goto(server.url);
			await openFeed(session, /^Testbed Tech News/);

			// The search box, offline, asks the local index and says so. (Before any article is
			// read: a later start at the root would resume that article instead of the tree.)
			await click(browser, button('Open search'));
			await fill(browser, input('Search headlines'), 'databases');
			await click(browser, button('Search'));
			const found = await waitFor(browser, 'results on this device', () => {
				if (!/Results on this device/.test(document.body.textContent ?? '')) return undefined;
				const titles = [...document.querySelectorAll('button[aria-label^="Star “"]')].map((b) =>
					(b.getAttribute('aria-label') ?? '').slice('Star “'.length, -1)
				);
				return titles.length > 0 ? titles : undefined;
			});
			expect(found).toEqual([
				'Tech news 01: Databases update',
				'Tech news 05: Databases update',
				'Tech news 09: Databases update'
			]);

			// A result opens with the body the sync kept.
			await click(browser, headline(/Tech news 05/));
			await waitFor(
				browser,
				'the body the sync kept',
				() => (document.querySelector('.article-content')?.textContent ?? '').trim().length > 20
			);
		} finally {
			server.reachability = 'online';
		}
	});
});
