/**
 * What the reader is told offline must be true: subscribe and "Update this feed now" are not
 * queued, so they say that nothing was changed, never that the change is kept for later.
 */
import { cutNetwork, restoreNetwork } from './offline-support';
import { feeds, headlineLink, signIn } from './reader-support';
import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';

test.beforeAll(() => {
	resetTestbed();
});

test('offline, subscribe and Update now say nothing was changed', async ({ page, context }) => {
	await signIn(page);

	await page.getByRole('link', { name: 'Subscribe to a feed' }).click();
	await expect(page.getByRole('heading', { name: 'Subscribe to a feed' })).toBeVisible();
	await cutNetwork(context);
	await page.getByLabel('Feed or site address').fill('http://feeds.test/feeds/podcast.xml?x=1');
	await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
	const alert = page.getByRole('alert').filter({ hasText: /offline/ });
	await expect(alert).toContainText('nothing was changed');
	await expect(alert).not.toContainText('kept on this device');
	await restoreNetwork(context);

	await feeds(page)
		.getByRole('link', { name: /^Testbed Tech News/ })
		.click();
	await expect(headlineLink(page, /Tech news 02: Networks update/)).toBeVisible();
	await cutNetwork(context);
	await page.locator('summary[aria-label="More feed actions"]').click();
	await page.getByRole('button', { name: 'Update this feed now' }).click();
	const toast = page.getByText(/You are offline, and this needs a connection/);
	await expect(toast).toContainText('nothing was changed');
	// No message says a change was kept (the feed menu's full-text hint speaks of articles kept).
	await expect(page.getByText(/Changes are kept on this device/)).toHaveCount(0);
	await restoreNetwork(context);
});
