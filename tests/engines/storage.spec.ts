/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Page functions in this file run in the browser: they need the DOM's types whatever the program's lib.
/**
 * The storage page where the browser tells less than Chromium: Firefox and WebKit have no
 * `navigator.connection`, so "only on Wi-Fi" downloads images and says the browser does not tell;
 * the page still measures what is kept and says whether storage is persistent (or that the browser
 * does not say). See docs/storage.md.
 */
import { describe, expect, test } from 'vitest';
import { ENGINES } from './support/engines';
import { signIn, useEngine } from './support/session';
import { waitFor } from './support/ui';

describe.each(ENGINES)('%s', (engine) => {
	const session = useEngine(engine);

	test('the storage page degrades on purpose without connection hints', async () => {
		const { browser, server } = session;
		await signIn(session);
		await browser.goto(`${server.url}settings/storage`);
		const figures = await waitFor(browser, 'the storage figures', () => {
			const text = (id: string): string =>
				(document.querySelector(`[data-testid="${id}"]`)?.textContent ?? '')
					.replace(/\s+/g, ' ')
					.trim();
			const total = text('articles-total');
			return total
				? {
						total: Number(total),
						images: text('images-setting'),
						persisted: text('storage-persisted'),
						connection: 'connection' in navigator
					}
				: undefined;
		});
		expect(figures.connection).toBe(false);
		expect(figures.total).toBeGreaterThanOrEqual(0);
		expect(figures.images).toBe(
			'Only on Wi-Fi. The browser does not say whether this is Wi-Fi: images are downloaded.'
		);
		expect(figures.persisted).toMatch(/^(Yes|No|This browser does not say)/);
	});
});
