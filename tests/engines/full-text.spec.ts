/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Page functions in this file run in the browser: they need the DOM's types whatever the program's lib.
/**
 * Full text's core path (issue 59) in Firefox and WebKit, against the real test bed with the
 * Reader plugin's PHP installed: open a teaser, tap "Full text", the page tt-rss fetched is
 * extracted in the app's full-text worker (a module worker running Readability over its own DOM
 * parser: the engine's own worker, not Chromium's) and shown in place of the teaser; tap back, the
 * teaser again. The full Chromium path, phone and desktop, is tests/e2e/full-text.spec.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ENGINES } from './support/engines';
import { signIn, useEngine } from './support/session';
import { button, click, poll } from './support/ui';
import { withReaderPlugin } from '../e2e/support/ttrss-plugin';

/** A short page of the 24 (testbed/fixtures/fulltext/daringfireball-1). */
const ARTICLE = 'Full text 06: Daring Fireball: Colophon';
/** The feed's teaser (the page's excerpt), and a sentence only the page has. */
const TEASER = 'Daring Fireball is written and produced by John Gruber.';
const PAGE_TEXT = 'Daring Fireball adheres to them';

describe.each(ENGINES)('%s', (engine) => {
	const session = useEngine(engine);
	let plugin: Awaited<ReturnType<typeof withReaderPlugin>> | undefined;

	beforeAll(async () => {
		// After useEngine's: the test bed is locked and reset, its client signed in.
		plugin = await withReaderPlugin('0.0.1-engines.fulltext', ['fulltext.xml'], session.client, {
			archive: false
		});
	});
	afterAll(() => plugin?.undo());

	test('tap "Full text": the page extracted in a worker in place of the teaser; back to the teaser', async () => {
		const { browser, server } = session;
		const feedId = plugin?.feeds.get('fulltext.xml');
		const articleId = plugin?.articles.get(ARTICLE);
		expect(feedId, 'the teaser feed subscribed').toBeTypeOf('number');
		expect(articleId, ARTICLE).toBeTypeOf('number');
		await signIn(session);
		await browser.goto(`${server.url}feed/${String(feedId)}/${String(articleId)}`);
		const articleText = () =>
			browser.evaluate(() =>
				[...document.querySelectorAll('.article-content')]
					.map((el) => el.textContent ?? '')
					.join(' ')
					.replace(/\s+/g, ' ')
			);
		await poll('the teaser', async () => (await articleText()).includes(TEASER), browser);
		expect(await articleText()).not.toContain(PAGE_TEXT);

		await click(browser, button('Full text'));
		const shown = await poll(
			'the full text, or why not',
			() =>
				browser.evaluate(() => {
					const body = document.querySelector('.full-text-body');
					if (body?.textContent?.trim()) return { text: body.textContent.replace(/\s+/g, ' ') };
					const failed = document.querySelector('.full-text-notice[data-status="failed"]');
					return failed ? { failed: failed.textContent?.trim() ?? '' } : null;
				}),
			browser,
			45_000
		);
		// A failure's message fails here with its words.
		expect('text' in shown ? shown.text : `failed: ${shown.failed}`).toContain(PAGE_TEXT);
		expect(
			await browser.evaluate(() =>
				document.querySelector('button.full-text')?.getAttribute('aria-pressed')
			)
		).toBe('true');

		await click(browser, button('Show the feed’s text'));
		// The feed's text is drawn again once the full text is gone (a moment after it, in WebKit).
		await poll(
			'the teaser again',
			() =>
				browser.evaluate(
					(teaser: string) =>
						document.querySelector('.full-text-body') === null &&
						document.querySelector('button.full-text')?.getAttribute('aria-pressed') === 'false' &&
						[...document.querySelectorAll('.article-content')].some((el) =>
							el.textContent?.replace(/\s+/g, ' ').includes(teaser)
						),
					TEASER
				),
			browser
		);
		expect(await articleText()).not.toContain(PAGE_TEXT);
	});
});
