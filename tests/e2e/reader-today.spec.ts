/**
 * Today against the real test bed: a feed tt-rss really fetched carries two articles dated now
 * and one of three days ago. Today (a feed only this device has) lists the two from the cache,
 * online without asking the server for it, and offline too, where its count is labelled as
 * counted on this device. Settings → Special feeds hides it and puts it back, per device.
 */
import { resetTestbed } from '../support/testbed';
import { cutNetwork, serverClient, signIn } from './offline-support';
import { feeds, headlineList, openSearch } from './reader-support';
import { expect, test } from './support/fixtures';
import { feedXml, ServedFeed } from './support/served-feed';

const FEED = 'Testbed Today Arrivals';
const served = new ServedFeed('e2e-today.xml');
const NOW_A = 'Morning market opens early';
const NOW_B = 'Ferry timetable changes this week';
const OLD = 'Three days ago: the old pier story';

test.beforeEach(async () => {
	resetTestbed();
	const now = Date.now();
	// A minute ago (never before the test's local midnight: then "now" itself), and three days ago.
	const midnight = new Date(now).setHours(0, 0, 0, 0);
	const recent = new Date(Math.max(midnight + 1000, now - 60_000));
	await served.subscribe(
		await serverClient(),
		feedXml(FEED, [
			{ title: NOW_A, guid: 'today-a', date: recent },
			{ title: NOW_B, guid: 'today-b', date: recent },
			{ title: OLD, guid: 'today-old', date: new Date(now - 3 * 24 * 3600_000) }
		])
	);
});

test.afterAll(() => {
	served.remove();
	if (!process.env.KEEP) resetTestbed();
});

const rowTitles = (page: import('@playwright/test').Page) =>
	headlineList(page)
		.locator('[data-article-id] .title')
		.allTextContents()
		.then((titles) => titles.map((t) => t.trim()));

test('Today lists the articles dated today from the cache, online and offline, counted on the device', async ({
	page,
	context
}) => {
	// Syncs every second: the new feed's articles reach the device without waiting.
	await page.addInitScript(() => localStorage.setItem('reader.syncIntervalMs', '1000'));
	// Every API request's body: none may name the device's own feed id.
	const bodies: string[] = [];
	context.on('request', (request) => {
		if (request.url().includes('/tt-rss/api/')) bodies.push(request.postData() ?? '');
	});
	await signIn(page);
	await expect(feeds(page).getByRole('link', { name: new RegExp(FEED) })).toBeVisible({
		timeout: 30_000
	});
	const today = feeds(page).getByRole('link', { name: /^Today/ });
	await expect(today.locator('.count')).toBeVisible({ timeout: 30_000 });

	await today.click();
	await expect(page.getByRole('heading', { level: 1, name: 'Today' })).toBeVisible();
	await expect.poll(() => rowTitles(page)).toEqual(expect.arrayContaining([NOW_A, NOW_B]));
	const listed = await rowTitles(page);
	expect(listed).not.toContain(OLD);
	// Its counter is the cache's: today's unread articles kept here, the ones the list shows.
	await expect(today.locator('.count')).toHaveText(String(listed.length));
	await expect(today.locator('[data-on-device]')).toHaveCount(0);
	// Never asked of the server.
	expect(bodies.some((b) => b.includes('getHeadlines'))).toBe(true);
	expect(bodies.filter((b) => /"feed_id":\s*"?-100\b/.test(b))).toEqual([]);
	// Its search is the device's, online too, and the banner says why (not "cannot be reached").
	await openSearch(page);
	await page.getByLabel('Search headlines').fill('ferry');
	await page.getByRole('button', { name: 'Search', exact: true }).click();
	await expect(page.locator('.on-device')).toContainText('Today is made on this device');
	await expect(page.locator('.on-device')).not.toContainText('cannot be reached');
	await expect.poll(() => rowTitles(page)).toEqual([NOW_B]);

	// Offline: another list, then Today again, from the cache; its count says where it comes from.
	await cutNetwork(context);
	await feeds(page)
		.getByRole('link', { name: new RegExp(FEED) })
		.click();
	await expect(headlineList(page).getByText(OLD)).toBeVisible();
	await today.click();
	await expect.poll(() => rowTitles(page)).toEqual(expect.arrayContaining([NOW_A, NOW_B]));
	expect(await rowTitles(page)).not.toContain(OLD);
	await expect(today.locator('[data-on-device]')).toBeVisible();
	await expect(today).toContainText('counted on this device');
});

test('Settings → Special feeds hides Today and moves it, kept after a reload', async ({ page }) => {
	await signIn(page);
	const today = feeds(page).getByRole('link', { name: /^Today/ });
	await expect(today).toBeVisible();
	await page.getByRole('link', { name: 'Settings' }).click();
	await page.getByRole('checkbox', { name: 'Show Today' }).uncheck();
	// Starred above Today, then above Fresh.
	await page.getByRole('button', { name: 'Move Starred articles up' }).click();
	await page.getByRole('button', { name: 'Move Starred articles up' }).click();
	await page.reload();
	await expect(page.getByRole('checkbox', { name: 'Show Today' })).not.toBeChecked();
	await page.getByRole('link', { name: 'Reader', exact: true }).click();
	await expect(feeds(page).getByRole('link', { name: /^Starred articles/ })).toBeVisible();
	await expect(today).toHaveCount(0);
	const special = await feeds(page)
		.locator('[data-key^="feed:-"]')
		.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key')));
	expect(special.indexOf('feed:-1')).toBeLessThan(special.indexOf('feed:-3'));
});
