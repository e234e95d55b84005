import { expect, test } from './support/fixtures';
import { resetTestbed, testbed } from '../support/testbed';
import { serverClient, signIn } from './reader-support';

test.beforeEach(() => {
	resetTestbed();
});

test('a page shared from another app fills the form and lands in Published on the server', async ({
	page
}) => {
	await signIn(page);
	const link = `http://${testbed.feedsHost}/articles/shared-from-phone`;
	// As Android sends it: the link inside the text, no url parameter.
	const query = new URLSearchParams({
		title: 'Shared from the phone',
		text: `Worth reading ${link}`
	});
	await page.goto(`/share?${query.toString()}`);

	await expect(page.getByLabel('Title')).toHaveValue('Shared from the phone');
	await expect(page.getByLabel('URL')).toHaveValue(link);
	await expect(page.getByLabel('Text')).toHaveValue('Worth reading');
	await page.getByRole('button', { name: 'Share to Published' }).click();
	await expect(page.getByRole('link', { name: 'See Published articles' })).toBeVisible();

	const client = await serverClient();
	await expect
		.poll(async () =>
			(await client.getHeadlines({ feedId: -2, viewMode: 'all_articles' })).headlines.map(
				(h) => h.link
			)
		)
		.toContain(link);
});

test('a shared feed address can be subscribed instead, into a chosen category', async ({
	page
}) => {
	await signIn(page);
	const feed = `http://${testbed.feedsHost}/feeds/podcast.xml?shared=1`;
	await page.goto(`/share?${new URLSearchParams({ url: feed }).toString()}`);
	await page.getByRole('button', { name: 'Subscribe to it as a feed' }).click();
	await expect(page.getByRole('textbox', { name: 'Feed or site address' })).toHaveValue(feed);
	await page.getByLabel('Category').selectOption({ label: 'World' });
	await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
	await expect(page.getByText(/^Subscribed\./)).toBeVisible();

	const client = await serverClient();
	const world = (await client.getCategories()).find((c) => c.title === 'World');
	expect(world).toBeDefined();
	const feeds = await client.getFeeds({ catId: world?.id ?? 0 });
	expect(feeds.map((f) => f.feedUrl)).toContain(feed);
});
