import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import { feeds, serverClient, serverHeadline, signIn } from './reader-support';

test.beforeAll(() => {
	resetTestbed();
});

test('j/k, s, u, Shift+P, Shift+J, / and ? work like tt-rss', async ({ page }) => {
	const server = await serverClient();
	await signIn(page);
	await feeds(page)
		.getByRole('link', { name: /^Testbed Podcast/ })
		.click();
	const list = page.getByRole('list', { name: 'Headlines of Testbed Podcast' });
	await expect(list.getByRole('link').first()).toBeVisible();
	// Focus on the page, not in a field.
	await page.getByRole('heading', { level: 1, name: 'Testbed Podcast' }).click();

	await page.keyboard.press('j');
	const first = page.getByRole('heading', { level: 1, name: /^Episode 1/ });
	await expect(first).toBeFocused();
	await page.keyboard.press('j');
	await expect(page.getByRole('heading', { level: 1, name: /^Episode 2/ })).toBeFocused();
	await expect(list.locator('[aria-current="true"]')).toContainText('Episode 2');
	await page.keyboard.press('k');
	await expect(first).toBeFocused();
	// Opening by keyboard marks read too.
	await expect
		.poll(async () => (await serverHeadline(server, 'Episode 1: a tone (audio enclosure)')).unread)
		.toBe(false);

	// s: Episode 1 was seeded starred, so s unstars it; u marks it unread again.
	await page.keyboard.press('s');
	await expect(page.getByRole('button', { name: 'Star', exact: true })).toBeVisible();
	await expect
		.poll(async () => (await serverHeadline(server, 'Episode 1: a tone (audio enclosure)')).marked)
		.toBe(false);
	await page.keyboard.press('u');
	await expect(page.getByRole('button', { name: 'Mark read' })).toBeVisible();
	await expect
		.poll(async () => (await serverHeadline(server, 'Episode 1: a tone (audio enclosure)')).unread)
		.toBe(true);
	await page.keyboard.press('Shift+P');
	await expect
		.poll(
			async () => (await serverHeadline(server, 'Episode 1: a tone (audio enclosure)')).published
		)
		.toBe(true);

	// ?: the help dialog lists the shortcuts; Escape closes it.
	await page.keyboard.press('?');
	const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
	await expect(help).toBeVisible();
	await expect(help).toContainText('Next article');
	await page.keyboard.press('Escape');
	await expect(help).toBeHidden();

	// /: focuses the search field; typing there is not a shortcut.
	await page.keyboard.press('/');
	const search = page.getByRole('searchbox', { name: 'Search headlines' });
	await expect(search).toBeFocused();
	await page.keyboard.type('jk');
	await expect(search).toHaveValue('jk');
	await expect(first).toBeVisible();
	await search.press('Escape');
	await page.getByRole('heading', { level: 1, name: 'Testbed Podcast' }).click();

	// Shift+J: the next feed in the tree, focus on its heading.
	await page.keyboard.press('Shift+J');
	await expect(page).not.toHaveURL(/\/feed\/4(\/|$)/);
	await expect(page.locator('#list-title')).toBeFocused();
});
