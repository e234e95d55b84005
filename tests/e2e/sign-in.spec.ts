import { expect, test } from './support/fixtures';
import { resetTestbed, testbed } from '../support/testbed';

test.beforeAll(() => {
	resetTestbed();
});

test('signs in to the real server and shows the fixture feeds it fetched', async ({ page }) => {
	await page.goto('/');
	// Not signed in yet: the app sends the reader to the sign-in screen.
	await expect(page).toHaveURL(/\/login$/);

	await page.getByLabel('User name', { exact: true }).fill(testbed.user);
	await page.getByLabel('Password', { exact: true }).fill(testbed.password);
	await page.getByRole('button', { name: 'Sign in' }).click();

	const feeds = page.locator('nav[aria-label="Feeds"]');
	// Titles come from the fixture feeds, as tt-rss fetched them from the feeds host.
	for (const title of [
		'Testbed Tech News',
		'Testbed Web Dev (Atom)',
		'Testbed Big Feed (320 items)',
		'Международный'
	]) {
		await expect(feeds.getByRole('link', { name: title })).toBeVisible();
	}
	await expect(feeds.getByRole('link', { name: /Starred articles/ })).toBeVisible();
	// Nested categories: Web inside Tech (the tree is a flat list; its rows say their level).
	await expect(
		feeds.locator('li[aria-level="2"]').getByRole('button', { name: 'Web feeds' })
	).toBeVisible();
});

test('a wrong password gets a clear message and keeps the reader on the form', async ({ page }) => {
	await page.goto('/login');
	await page.getByLabel('User name', { exact: true }).fill(testbed.user);
	await page.getByLabel('Password', { exact: true }).fill('not-the-password');
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page.getByRole('alert')).toContainText('user name or password was not accepted');
	await expect(page).toHaveURL(/\/login$/);
});

test('a user without API access is told what to enable', async ({ page }) => {
	await page.goto('/login');
	await page.getByLabel('User name', { exact: true }).fill(testbed.noApiUser);
	await page.getByLabel('Password', { exact: true }).fill(testbed.noApiPassword);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page.getByRole('alert')).toContainText('Enable API access');
});

test('browser API access off (current servers): the reader is told the exact setting to turn on', async ({
	page
}) => {
	const { noBrowserUser, noBrowserPassword } = testbed;
	test.skip(!noBrowserUser || !noBrowserPassword, 'only servers with the browser opt-in');
	await page.goto('/login');
	await page.getByLabel('User name', { exact: true }).fill(noBrowserUser ?? '');
	await page.getByLabel('Password', { exact: true }).fill(noBrowserPassword ?? '');
	await page.getByRole('button', { name: 'Sign in' }).click();
	// login succeeds; the next request answers API_DISABLED: the screen names the preference.
	await expect(page.getByText(/turn on "Enable browser-based API access"/).first()).toBeVisible();
});
