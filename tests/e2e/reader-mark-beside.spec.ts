/**
 * "Mark above / below as read" against the real test bed: the row's ⋯ menu (desktop and phone)
 * and Shift+↑/↓ on the open article mark read exactly the unread rows on that side, as the server
 * then reports, and leave the others unread.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import { headlineList, openFeedTitles, serverUnreadOf, signIn } from './reader-support';

test.beforeAll(() => {
	resetTestbed();
});

/**
 * How long the server may take to show a mark above/below: it is held for its undo toast (5 s),
 * then waits for the replay's lock, which a start's sync may hold for seconds on a loaded machine
 * (twice here, beside a unit-test run, nothing was sent within 10 s; alone it takes ~6 s).
 */
const SENT_WITHIN = { timeout: 25_000 };

async function markFromMenu(page: Page, title: string, action: RegExp): Promise<void> {
	const more = headlineList(page).getByRole('button', { name: `More actions for “${title}”` });
	await more.click();
	const panel = headlineList(page).getByRole('group', { name: `Actions for “${title}”` });
	// Focus moves into the panel, on its first action.
	await expect(panel.getByRole('button').first()).toBeFocused();
	const button = panel.getByRole('button', { name: action });
	const box = await button.boundingBox();
	expect(box?.height).toBeGreaterThanOrEqual(44);
	await button.click();
	await expect(panel).toBeHidden();
	await expect(more).toBeFocused();
}

test('the row menu marks the rows above read, and only those', async ({ page }) => {
	await signIn(page);
	// Web Dev: 8 articles, Web dev 08 read, so the list shows the 7 unread ones.
	const titles = await openFeedTitles(page, /^Testbed Web Dev/);
	expect(titles).toHaveLength(7);
	await markFromMenu(page, titles[3] ?? '', /^Mark above read$/);
	const expected = titles.map((_, i) => i >= 3);
	await expect.poll(() => serverUnreadOf(titles), SENT_WITHIN).toEqual(expected);
	// On screen as on the server: the first three rows lost their unread mark.
	const rows = headlineList(page).locator('[data-article-id]');
	for (const [i, unread] of expected.entries()) {
		await expect(rows.nth(i)).toHaveClass(unread ? /\bunread\b/ : /^(?!.*\bunread\b)/);
	}
});

test('Shift+↓ on the open article marks the rows below it read', async ({ page }) => {
	await signIn(page);
	// International: 7 articles, all unread.
	const titles = await openFeedTitles(page, /^Testbed International/);
	expect(titles).toHaveLength(7);
	// Opening the second article marks it read; the first stays unread.
	await headlineList(page)
		.getByRole('link', { name: titles[1] ?? '' })
		.click();
	await expect(page.getByRole('heading', { level: 1, name: titles[1] ?? '' })).toBeVisible();
	await page.keyboard.press('Shift+ArrowDown');
	await expect
		.poll(() => serverUnreadOf(titles), SENT_WITHIN)
		.toEqual(titles.map((_, i) => i === 0));
});

test.describe('phone', () => {
	test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

	test('the row menu marks the rows below read', async ({ page }) => {
		await signIn(page);
		// Tech News: 12 articles, 3 read, so the list shows the 9 unread ones.
		const titles = await openFeedTitles(page, /^Testbed Tech News/);
		expect(titles).toHaveLength(9);
		await markFromMenu(page, titles[2] ?? '', /^Mark below read$/);
		await expect
			.poll(() => serverUnreadOf(titles), SENT_WITHIN)
			.toEqual(titles.map((_, i) => i <= 2));
	});
});
