import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import { feeds, headlineLink, seriousA11yViolations, signIn } from './reader-support';

test.beforeAll(() => {
	resetTestbed();
});

test('axe finds no serious or critical issue on any screen', async ({ page }) => {
	await page.goto('/login');
	await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
	expect(await seriousA11yViolations(page), 'login').toEqual([]);

	await signIn(page);
	expect(await seriousA11yViolations(page), 'feed tree').toEqual([]);

	await feeds(page)
		.getByRole('link', { name: /^Testbed Tech News/ })
		.click();
	await expect(headlineLink(page, /Tech news 01/)).toBeVisible();
	expect(await seriousA11yViolations(page), 'headlines').toEqual([]);

	await headlineLink(page, /Tech news 01/).click();
	await expect(page.getByRole('heading', { level: 1, name: /Tech news 01/ })).toBeVisible();
	expect(await seriousA11yViolations(page), 'article').toEqual([]);

	await page.keyboard.press('?');
	await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
	expect(await seriousA11yViolations(page), 'help dialog').toEqual([]);
	await page.keyboard.press('Escape');

	await page.getByRole('link', { name: 'Settings' }).click();
	await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
	expect(await seriousA11yViolations(page), 'settings').toEqual([]);
	// Dark theme too: contrast is checked on both palettes.
	await page.getByRole('radio', { name: 'Dark' }).check();
	await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
	expect(await seriousA11yViolations(page), 'settings, dark').toEqual([]);

	await page.getByRole('link', { name: 'Subscribe to a feed' }).click();
	await expect(page.getByRole('heading', { level: 1, name: 'Subscribe to a feed' })).toBeVisible();
	expect(await seriousA11yViolations(page), 'subscribe').toEqual([]);
});

test('settings apply at once and persist', async ({ page }) => {
	await signIn(page);
	await page.getByRole('link', { name: 'Settings' }).click();
	await page.getByRole('checkbox', { name: /Hide feeds and categories/ }).check();
	// Big feed items 301-320 are read but the feed still has unread: it stays; Archived (0) goes.
	await expect(feeds(page).getByRole('link', { name: /Archived articles/ })).toHaveCount(0);
	await expect(feeds(page).getByRole('link', { name: /^Testbed Tech News/ })).toBeVisible();
	await page.getByRole('radio', { name: '130%' }).check();
	await page.reload();
	await expect(page.getByRole('radio', { name: '130%' })).toBeChecked();
	await expect(page.getByRole('checkbox', { name: /Hide feeds and categories/ })).toBeChecked();
});
