import { expect, test } from './support/fixtures';
import { resetTestbed, testbed } from '../support/testbed';
import { cutNetwork, openFeed, signIn } from './offline-support';

test.beforeAll(() => {
	resetTestbed();
});

test('the sync keeps article images, and the worker serves them with no network', async ({
	context,
	page
}) => {
	await signIn(page);
	await page.getByRole('link', { name: 'Settings' }).click();
	// The sync ran by itself after sign-in; "Sync now" waits for it and compares everything again.
	await page.getByRole('button', { name: 'Sync now' }).click();
	await expect(page.getByTestId('sync-progress')).toContainText('Up to date.');

	// The worker fetched the images from the feed host (its own policy allows that; the page's
	// does not) and keeps them.
	const kept = await page.evaluate(async () =>
		(await (await caches.open('images-v1')).keys()).map((request) => request.url)
	);
	const image = `http://${testbed.feedsHost}/media/gradient-320x200.png`;
	expect(kept).toContain(image);

	// No network at all, the feed host included: only the cache can answer.
	await cutNetwork(context);
	await context.route(`http://${testbed.feedsHost}/**`, (route) =>
		route.abort('internetdisconnected')
	);
	await openFeed(page, 'Testbed Tech News');
	await page
		.getByRole('link', { name: /Tech news 01: Databases update/ })
		.first()
		.click();
	const picture = page.locator(`article img[src="${image}"]`).first();
	await expect(picture).toBeVisible();
	await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
});
