/**
 * Catch-ups send the server exactly what the reader saw (issue 11), checked on the real server
 * through the API: during a search only the matches are marked read; a catch-up made offline does
 * not cover what arrived before it was sent.
 */
import { ArticleField, UpdateMode } from '../../src/lib/api';
import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import {
	cutNetwork,
	openFeed,
	outboxCount,
	readStore,
	restoreNetwork,
	serverClient,
	serverHeadlines,
	signIn,
	starButtons
} from './offline-support';
import { openSearch } from './reader-support';

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
	await openSearch(page);
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

test('"Mark read" offline covers what the reader could see, not what arrived before it was sent', async ({
	context,
	page
}) => {
	await signIn(page);
	await openFeed(page, 'All articles');
	await cutNetwork(context);
	await page.locator('summary', { hasText: 'Mark read' }).click();
	await page
		.getByRole('group', { name: 'Mark as read' })
		.getByRole('button', { name: 'All articles' })
		.click();
	await expect.poll(() => outboxCount(page)).toBe(1);
	const [item] = await readStore<{ intent: { maxId?: number } }[]>(page, 'outbox');
	const maxId = item?.intent.maxId ?? 0;
	expect(maxId).toBeGreaterThan(0);

	// An article arrives on the server while the reader is offline (shares are stored read: mark it
	// unread, as a new article of a feed would be).
	const title = `Arrived after the catch-up ${Date.now()}`;
	const server = await serverClient();
	await server.shareToPublished({ title, url: 'http://feeds.test/arrived-later', content: 'new' });
	const arrived = (await serverHeadlines(-2)).find((h) => h.title === title);
	expect(arrived?.id).toBeGreaterThan(maxId);
	await server.updateArticle({
		articleIds: [arrived?.id ?? 0],
		field: ArticleField.Unread,
		mode: UpdateMode.True
	});

	// The pending list says what will be sent, by name.
	await page.getByRole('link', { name: 'Settings' }).click();
	await expect(
		page.getByRole('list', { name: 'Changes waiting to be sent' }).getByRole('listitem')
	).toHaveText([/^Mark read the articles of “All articles” you could see on /]);

	await restoreNetwork(context);
	await expect.poll(() => outboxCount(page), { timeout: 20_000 }).toBe(0);
	const after = await serverHeadlines(-4);
	expect(after.find((h) => h.title === title)?.unread).toBe(true);
	expect(after.filter((h) => h.id <= maxId && h.unread)).toEqual([]);
});
