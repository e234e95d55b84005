import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import {
	feeds,
	headlineLink,
	rowsTakeSwipes,
	serverClient,
	serverHeadline,
	signIn
} from './reader-support';

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

test.beforeAll(() => {
	resetTestbed();
});

async function swipe(
	page: import('@playwright/test').Page,
	title: RegExp,
	dx: number
): Promise<void> {
	await rowsTakeSwipes(page);
	const box = await headlineLink(page, title).boundingBox();
	if (!box) throw new Error('row not visible');
	const y = box.y + box.height / 2;
	const x = box.x + box.width / 2;
	await page.mouse.move(x, y);
	await page.mouse.down();
	await page.mouse.move(x + dx / 2, y, { steps: 4 });
	await page.mouse.move(x + dx, y, { steps: 4 });
	await page.mouse.up();
}

test('one pane at a time with back navigation, swipe to read and star', async ({ page }) => {
	const server = await serverClient();
	await signIn(page);
	// Home is the feed tree.
	await expect(feeds(page)).toBeVisible();
	await feeds(page)
		.getByRole('link', { name: /^Testbed Web Dev/ })
		.click();
	await expect(feeds(page)).toBeHidden();
	const row = headlineLink(page, /Web dev 03/);
	await expect(row).toBeVisible();
	// Touch targets are at least 44px tall.
	const back = page.getByRole('link', { name: 'Back' });
	expect((await back.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);

	// Swipe left: read; swipe right: star. The list stays (no article opened).
	await swipe(page, /Web dev 03/, -150);
	await expect
		.poll(async () => (await serverHeadline(server, await titleOf(row))).unread)
		.toBe(false);
	await expect(
		page.getByRole('heading', { level: 1, name: 'Testbed Web Dev (Atom)' })
	).toBeVisible();
	await swipe(page, /Web dev 03/, 150);
	await expect
		.poll(async () => (await serverHeadline(server, await titleOf(row))).marked)
		.toBe(true);
	await expect(row).toContainText('starred');

	// Article replaces the list; back returns to it, then to the tree.
	await headlineLink(page, /Web dev 04/).click();
	await expect(page.getByRole('heading', { level: 1, name: /Web dev 04/ })).toBeVisible();
	await expect(row).toBeHidden();
	await back.click();
	await expect(row).toBeVisible();
	await back.click();
	await expect(feeds(page)).toBeVisible();
});

async function titleOf(row: import('@playwright/test').Locator): Promise<string> {
	return (await row.locator('.title').textContent())?.trim() ?? '';
}
