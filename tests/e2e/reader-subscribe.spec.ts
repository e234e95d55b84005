import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import { feeds, serverClient, signIn } from './reader-support';

test.beforeAll(() => {
	resetTestbed();
});

test('subscribe (already subscribed, then a new feed), unsubscribe, share to Published', async ({
	page
}) => {
	const server = await serverClient();
	await signIn(page);

	await page.getByRole('link', { name: 'Subscribe to a feed' }).click();
	await page.getByLabel('Feed or site address').fill('http://feeds.test/feeds/tech-news.xml');
	await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
	await expect(page.getByRole('status').filter({ hasText: 'already subscribed' })).toBeVisible();

	const url = 'http://feeds.test/feeds/podcast.xml?copy=1';
	await page.getByLabel('Feed or site address').fill(url);
	await page.getByLabel('Category').selectOption({ label: 'World' });
	await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Subscribed.' })).toBeVisible();
	const added = (await server.getFeeds({ catId: -3 })).find((f) => f.feedUrl === url);
	expect(added).toBeDefined();
	const world = (await server.getCategories()).find((c) => c.title === 'World');
	expect(added?.catId).toBe(world?.id);

	// Open it from the status message and unsubscribe (with a confirmation).
	await page.getByRole('link', { name: 'Open the feed' }).click();
	await page.locator('summary[aria-label="More feed actions"]').click();
	await page.getByRole('button', { name: 'Unsubscribe…' }).click();
	const dialog = page.getByRole('dialog', { name: 'Unsubscribe?' });
	await expect(dialog).toBeVisible();
	await dialog.getByRole('button', { name: 'Unsubscribe' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Unsubscribed' })).toBeVisible();
	await expect
		.poll(async () => (await server.getFeeds({ catId: -3 })).some((f) => f.feedUrl === url))
		.toBe(false);
	await expect(feeds(page).getByRole('link', { name: /^Testbed Podcast/ })).toHaveCount(1);

	// Share a page to Published.
	await page.getByRole('link', { name: 'Share a page to Published' }).click();
	await page.getByLabel('Title').fill('Shared <i>page</i> from the reader');
	await page.getByLabel('URL').fill('http://feeds.test/shared-page');
	await page.getByLabel('Text').fill('Worth reading.');
	await page.getByRole('button', { name: 'Share to Published' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Shared.' })).toBeVisible();
	await expect
		.poll(async () =>
			(await server.getHeadlines({ feedId: -2, limit: 50 })).headlines.some((h) =>
				h.title.includes('from the reader')
			)
		)
		.toBe(true);
});
