import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import { feeds, headlineList, signIn } from './reader-support';

test.beforeAll(() => {
	resetTestbed();
});

test('a later start writes the headline dates from kept patterns, exactly as Intl does', async ({
	page
}) => {
	await signIn(page);
	await feeds(page)
		.getByRole('link', { name: /^All articles/ })
		.click();
	await expect(headlineList(page).locator('time').first()).toBeVisible();
	// Made and kept once the first screen is done and the browser is idle.
	await expect
		.poll(() => page.evaluate(() => localStorage.getItem('reader.datePatterns')))
		.toContain('"version":1');

	await page.reload();
	const times = headlineList(page).locator('time');
	await expect(times.first()).toBeVisible();
	const shown = await times.evaluateAll((nodes) =>
		nodes.map((n) => ({ iso: n.getAttribute('datetime') ?? '', text: n.textContent ?? '' }))
	);
	expect(shown.length).toBeGreaterThan(3);
	// What Intl writes for these dates in this browser (src/lib/format/format.ts: shortDate).
	const written = await page.evaluate(
		(isos) =>
			isos.map((iso) => {
				const date = new Date(iso);
				const now = new Date();
				const options: Intl.DateTimeFormatOptions =
					date.toDateString() === now.toDateString()
						? { hour: '2-digit', minute: '2-digit' }
						: date.getFullYear() === now.getFullYear()
							? { day: 'numeric', month: 'short' }
							: { day: 'numeric', month: 'short', year: 'numeric' };
				return new Intl.DateTimeFormat(undefined, options).format(date);
			}),
		shown.map((r) => r.iso)
	);
	expect(shown.map((r) => r.text)).toEqual(written);
});
