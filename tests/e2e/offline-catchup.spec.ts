/**
 * Catch-ups send the server exactly what the reader saw: during a search only the matches are
 * marked read (issue 11), checked on the real server through the API.
 */
import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import { openFeed, outboxCount, serverHeadlines, signIn, starButtons } from './offline-support';

test.beforeEach(() => {
	resetTestbed();
});

const unreadIds = (headlines: { id: number; unread: boolean }[]): number[] =>
	headlines
		.filter((h) => h.unread)
		.map((h) => h.id)
		.sort((a, b) => a - b);

test('"Mark read" during a search marks only the matching articles, on screen and on the server', async ({
	page
}) => {
	const before = await serverHeadlines();
	const others = unreadIds(before.filter((h) => !h.title.includes('(beta)')));
	expect(others.length).toBeGreaterThan(0);
	expect(unreadIds(before.filter((h) => h.title.includes('(beta)'))).length).toBeGreaterThan(0);

	await signIn(page);
	await openFeed(page);
	// The test bed's full-text index is empty; tt-rss's `title:` keyword searches titles.
	await page.getByLabel('Search headlines').fill('title:beta');
	await page.getByRole('button', { name: 'Search', exact: true }).click();
	await expect(page.getByRole('button', { name: 'Clear' })).toBeVisible();
	await expect(starButtons(page).first()).toHaveAttribute('aria-label', /\(beta\)/);

	await page.locator('summary', { hasText: 'Mark read' }).click();
	await page
		.getByRole('group', { name: 'Mark as read' })
		.getByRole('button', { name: 'All articles' })
		.click();
	await expect(page.getByText('Marked the articles matching “title:beta” as read.')).toBeVisible();
	await expect.poll(() => outboxCount(page)).toBe(0);

	const after = await serverHeadlines();
	expect(unreadIds(after.filter((h) => h.title.includes('(beta)')))).toEqual([]);
	// The rest of the feed is as unread as it was.
	expect(unreadIds(after.filter((h) => !h.title.includes('(beta)')))).toEqual(others);
});
