/**
 * Muted words against the real test bed: a muted word hides the matching headlines of a list
 * ("N hidden", with a way to show them), offline as online since the filter runs on the device,
 * and "also mark them read" marks them read on the server through the outbox. Desktop and phone.
 */
import { resetTestbed } from '../support/testbed';
import { cutNetwork, restoreNetwork, signIn } from './offline-support';
import { feeds, openFeed, headlineLink, serverClient, serverHeadline } from './reader-support';
import { expect, test } from './support/fixtures';

const TECH = /^Testbed Tech News/;
// Unread in the seed: Tech news 01–09; "Databases" is in the titles of 01, 05 and 09.
const MUTED = [
	'Tech news 01: Databases update',
	'Tech news 05: Databases update',
	'Tech news 09: Databases update'
];

test.beforeEach(() => {
	resetTestbed();
});

test.afterAll(() => {
	resetTestbed();
});

async function muteWords(
	page: import('@playwright/test').Page,
	words: string,
	{ markRead = false }: { markRead?: boolean } = {}
): Promise<void> {
	await page.goto('/settings/alerts');
	await page.getByRole('textbox', { name: /^Muted words/ }).fill(words);
	await page.getByRole('checkbox', { name: /Also mark them read/ }).setChecked(markRead);
	await page.getByRole('button', { name: 'Save muted words' }).click();
	await expect(page.getByText(/Saved: \d+ muted word/)).toBeVisible();
}

for (const layout of [
	{ name: 'desktop', viewport: { width: 1280, height: 800 } },
	{ name: 'phone', viewport: { width: 390, height: 844 } }
]) {
	test(`${layout.name}: a muted word hides matching headlines, "N hidden" shows them, offline too`, async ({
		context,
		page
	}) => {
		await page.setViewportSize(layout.viewport);
		await signIn(page);
		await muteWords(page, 'databases');
		await page.goto('/');
		await openFeed(page, TECH, /Tech news 02/);
		const line = page.getByTestId('muted-line');
		await expect(line).toContainText('3 hidden by muted words');
		for (const title of MUTED) await expect(headlineLink(page, title)).toHaveCount(0);
		// A whole word only: nothing else of the feed is hidden.
		await expect(headlineLink(page, /Tech news 03/)).toBeVisible();

		const show = line.getByRole('button', { name: 'Show them' });
		expect((await show.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
		await show.click();
		await expect(headlineLink(page, MUTED[0] ?? '')).toBeVisible();
		await expect(line).toContainText('Showing 3 muted articles');
		await line.getByRole('button', { name: 'Hide them' }).click();
		await expect(headlineLink(page, MUTED[0] ?? '')).toHaveCount(0);

		// Offline: the list comes from the device, and the words still apply.
		await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
		await cutNetwork(context);
		await page.reload();
		await expect(headlineLink(page, /Tech news 02/)).toBeVisible();
		await expect(page.getByTestId('muted-line')).toContainText('3 hidden by muted words');
		await expect(headlineLink(page, MUTED[0] ?? '')).toHaveCount(0);
		await restoreNetwork(context);

		// Nothing was marked read: the server still counts them unread.
		const client = await serverClient();
		for (const title of MUTED) expect((await serverHeadline(client, title)).unread).toBe(true);
	});
}

test('"also mark them read": the hidden articles are marked read on the server', async ({
	page
}) => {
	await signIn(page);
	await muteWords(page, 'databases', { markRead: true });
	await page.goto('/');
	await feeds(page).getByRole('link', { name: TECH }).click();
	await expect(headlineLink(page, /Tech news 02/)).toBeVisible();
	const client = await serverClient();
	await expect
		.poll(
			async () =>
				Promise.all(MUTED.map(async (title) => (await serverHeadline(client, title)).unread)),
			{ timeout: 20_000 }
		)
		.toEqual([false, false, false]);
	// Only those: the rest of the feed is as it was.
	expect((await serverHeadline(client, 'Tech news 02: Networks update')).unread).toBe(true);
});
