import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import { feeds, headlineLink, signIn } from './reader-support';

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
