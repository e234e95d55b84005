import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import { feeds, headlineLink, rowsTakeSwipes, signIn } from './reader-support';

// Writes the documentation's screenshots: a feed with an article open, desktop and phone.
test.beforeEach(() => {
	resetTestbed();
});

for (const shot of [
	{ name: 'desktop', viewport: { width: 1440, height: 900 } },
	{ name: 'phone', viewport: { width: 390, height: 844 } }
]) {
	test(`screenshot: ${shot.name}`, async ({ page }) => {
		await page.setViewportSize(shot.viewport);
		await page.emulateMedia({ colorScheme: 'light' });
		await signIn(page);
		await feeds(page)
			.getByRole('link', { name: /^Testbed Tech News/ })
			.click();
		await headlineLink(page, /Tech news 01/).click();
		await expect(page.getByRole('heading', { level: 1, name: /Tech news 01/ })).toBeVisible();
		// Wait for images in view (icons, thumbnails) so the picture is complete.
		await page.waitForFunction(() =>
			Array.from(document.images).every((img) => img.complete || img.loading === 'lazy')
		);
		await page.locator('h1:focus').evaluate((el) => (el as HTMLElement).blur());
		await page.screenshot({ path: `docs/screenshots/${shot.name}.png` });
	});
}

// The selection bar (multi-select, bulk actions), desktop and phone: three rows picked.
for (const shot of [
	{ name: 'selection-desktop', viewport: { width: 1440, height: 900 } },
	{ name: 'selection-phone', viewport: { width: 390, height: 844 } }
]) {
	test(`screenshot: ${shot.name}`, async ({ page }) => {
		await page.setViewportSize(shot.viewport);
		await page.emulateMedia({ colorScheme: 'light' });
		await signIn(page);
		await page.goto('/feed/1');
		for (const title of [/Tech news 01/, /Tech news 02/, /Tech news 04/]) {
			await headlineLink(page, title).focus();
			await page.keyboard.press('x');
		}
		await expect(page.getByRole('group', { name: 'Selected articles' })).toContainText(
			'3 selected'
		);
		await page.waitForFunction(() =>
			Array.from(document.images).every((img) => img.complete || img.loading === 'lazy')
		);
		await page.screenshot({ path: `docs/screenshots/${shot.name}.png` });
	});
}

// A swipe's hint, armed (mid-swipe), then the Undo toast after letting go, desktop and phone.
for (const shot of [
	{ name: 'desktop', viewport: { width: 1440, height: 900 } },
	{ name: 'phone', viewport: { width: 390, height: 844 } }
]) {
	test(`screenshot: swipe hint and undo toast, ${shot.name}`, async ({ page }) => {
		await page.setViewportSize(shot.viewport);
		await page.emulateMedia({ colorScheme: 'light' });
		await signIn(page);
		await page.goto('/feed/1');
		const link = headlineLink(page, /Tech news 04/);
		await rowsTakeSwipes(page);
		const box = await link.boundingBox();
		if (!box) throw new Error('row not visible');
		const y = box.y + box.height / 2;
		const x = box.x + box.width / 2;
		await page.mouse.move(x, y);
		await page.mouse.down();
		await page.mouse.move(x - 110, y, { steps: 6 });
		await expect(page.locator('[data-swipe-hint]')).toHaveClass(/\barmed\b/);
		await page.screenshot({ path: `docs/screenshots/swipe-hint-${shot.name}.png` });
		await page.mouse.up();
		await expect(
			page.getByRole('status', { name: 'Notifications' }).getByRole('button', { name: 'Undo' })
		).toBeVisible();
		await page.screenshot({ path: `docs/screenshots/undo-toast-${shot.name}.png` });
	});
}
