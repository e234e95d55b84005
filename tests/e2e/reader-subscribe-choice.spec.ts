/**
 * Subscribe from a site's address against the real test bed: feeds.test serves an HTML page that
 * names two feeds; tt-rss answers that it found several (subscribeToFeed code 4 with their list),
 * the app shows them, the reader picks one, and the server is subscribed to that one only.
 */
import { resetTestbed, testbed } from '../support/testbed';
import { serverClient, signIn } from './reader-support';
import { expect, test } from './support/fixtures';
import { feedXml, ServedFeed } from './support/served-feed';

const page1 = new ServedFeed('e2e-site.html');
const first = new ServedFeed('e2e-site-news.xml');
const second = new ServedFeed('e2e-site-notes.xml');

test.beforeAll(() => {
	resetTestbed();
	const day = new Date(Date.UTC(2026, 10, 3, 8));
	first.serve(feedXml('Testbed Site News', [{ title: 'Site news 1', guid: 'sn-1', date: day }]));
	second.serve(feedXml('Testbed Site Notes', [{ title: 'Site note 1', guid: 'so-1', date: day }]));
	page1.serve(`<!doctype html><html><head><title>Testbed site</title>
<link rel="alternate" type="application/rss+xml" title="Site news" href="${first.url}">
<link rel="alternate" type="application/rss+xml" title="Site notes" href="${second.url}">
</head><body><p>A site with two feeds on http://${testbed.feedsHost}/.</p></body></html>`);
});

test.afterAll(() => {
	for (const served of [page1, first, second]) served.remove();
	if (!process.env.KEEP) resetTestbed();
});

test('a site with several feeds: the reader picks one, the server subscribes to that one', async ({
	page
}) => {
	const server = await serverClient();
	await signIn(page);
	await page.getByRole('link', { name: 'Subscribe to a feed' }).click();
	await page.getByLabel('Feed or site address').fill(page1.url);
	await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
	const found = page.getByRole('group', { name: 'Feeds found on that page' });
	await expect(found).toBeVisible();
	await expect(found.getByRole('radio')).toHaveCount(2);
	await found.getByRole('radio', { name: /Site notes/ }).check();
	await page.getByRole('button', { name: 'Subscribe to this feed' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Subscribed.' })).toBeVisible();
	const urls = (await server.getFeeds({ catId: -3 })).map((f) => f.feedUrl);
	expect(urls).toContain(second.url);
	expect(urls).not.toContain(first.url);
	expect(urls).not.toContain(page1.url);
});
