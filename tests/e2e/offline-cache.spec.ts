import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import { BIG_FEED, cutNetwork, openFeed, readStore, signIn, starTitle } from './offline-support';

test.beforeAll(() => {
	resetTestbed();
});

test('an offline cold start after one online session shows the cached tree, headlines and article', async ({
	context,
	page
}) => {
	await signIn(page);
	await openFeed(page);
	const title = await starTitle(page, 0);
	await page
		.getByRole('link', { name: new RegExp(title.replace(/[()]/g, '.')) })
		.first()
		.click();
	await expect(page.getByRole('heading', { name: title })).toBeVisible();
	await expect
		.poll(async () =>
			(await readStore<{ hasContent: boolean }[]>(page, 'articles')).some((a) => a.hasContent)
		)
		.toBe(true);
	await cutNetwork(context);
	await page.close();

	const cold = await context.newPage();
	await cold.goto('/');
	const feeds = cold.locator('nav[aria-label="Feeds"]');
	await expect(feeds.getByRole('link', { name: BIG_FEED })).toBeVisible();
	await openFeed(cold);
	await expect(cold.getByRole('button', { name: `Star “${title}”` })).toBeVisible();
	await cold
		.getByRole('link', { name: new RegExp(title.replace(/[()]/g, '.')) })
		.first()
		.click();
	await expect(cold.getByRole('heading', { name: title })).toBeVisible();
	await expect(cold.locator('article')).toContainText(/\w{20,}|Big feed/);
});
