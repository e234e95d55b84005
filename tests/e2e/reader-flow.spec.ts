import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import {
	feeds,
	headlineLink,
	headlineList,
	serverClient,
	serverHeadline,
	serverUnread,
	signIn
} from './reader-support';

test.describe.configure({ mode: 'serial' });

test.beforeEach(() => {
	resetTestbed();
});

test('reads a feed: open, star, publish, note, labels, mark unread, catch up', async ({ page }) => {
	const server = await serverClient();
	await signIn(page);

	// Walk the tree: Tech › Web is nested, the feed sits inside.
	await expect(
		feeds(page).locator('li[aria-level="2"]').getByRole('button', { name: 'Web feeds' })
	).toBeVisible();
	const techUnread = await serverUnread(server, 1);
	await feeds(page)
		.getByRole('link', { name: /^Testbed Tech News/ })
		.click();
	await expect(page.getByRole('heading', { level: 1, name: 'Testbed Tech News' })).toBeVisible();
	await expect(headlineLink(page, /Tech news 02: Networks update/)).toBeVisible();

	// Opening an article marks it read, on screen at once and on the server.
	await headlineLink(page, /Tech news 02: Networks update/).click();
	const heading = page.getByRole('heading', { level: 1, name: 'Tech news 02: Networks update' });
	await expect(heading).toBeFocused();
	await expect(page.getByRole('button', { name: 'Mark unread' })).toBeVisible();
	await expect
		.poll(async () => (await serverHeadline(server, 'Tech news 02: Networks update')).unread)
		.toBe(false);
	await expect.poll(() => serverUnread(server, 1)).toBe(techUnread - 1);
	await expect(feeds(page).getByRole('link', { name: /^Testbed Tech News/ })).toContainText(
		String(techUnread - 1)
	);

	// Star and publish (absolute values on the server).
	const star = page.getByRole('toolbar', { name: 'Article actions' }).getByRole('button', {
		name: 'Star',
		exact: true
	});
	await expect(star).toHaveAttribute('aria-pressed', 'false');
	await star.click();
	await expect(star).toHaveAttribute('aria-pressed', 'true');
	await expect
		.poll(async () => (await serverHeadline(server, 'Tech news 02: Networks update')).marked)
		.toBe(true);
	// It was seeded as published: unpublish, then publish again.
	const publish = page.getByRole('button', { name: 'Publish', exact: true });
	await expect(publish).toHaveAttribute('aria-pressed', 'true');
	await publish.click();
	await expect(publish).toHaveAttribute('aria-pressed', 'false');
	await expect
		.poll(async () => (await serverHeadline(server, 'Tech news 02: Networks update')).published)
		.toBe(false);
	await page.getByRole('button', { name: 'Publish', exact: true }).click();
	await expect
		.poll(async () => (await serverHeadline(server, 'Tech news 02: Networks update')).published)
		.toBe(true);

	// A note with markup is shown as text.
	await page.getByRole('button', { name: 'Add note' }).click();
	await page.getByRole('textbox', { name: 'Note' }).fill('Check <b>this</b> later');
	await page.getByRole('button', { name: 'Save note' }).click();
	await expect(page.getByRole('complementary', { name: 'Note' })).toContainText(
		'Check <b>this</b> later'
	);
	await expect
		.poll(async () => (await serverHeadline(server, 'Tech news 02: Networks update')).note)
		.toContain('Check');

	// Labels: assign Important, then remove it.
	await page.locator('summary', { hasText: 'Labels' }).click();
	const important = page.getByRole('checkbox', { name: 'Important' });
	await expect(important).not.toBeChecked();
	await important.check();
	await expect(page.getByRole('list', { name: 'Labels and tags' })).toContainText('Important');
	await expect
		.poll(
			async () =>
				(
					await server.getLabels((await serverHeadline(server, 'Tech news 02: Networks update')).id)
				).find((l) => l.caption === 'Important')?.checked
		)
		.toBe(true);
	await important.uncheck();
	await expect
		.poll(
			async () =>
				(
					await server.getLabels((await serverHeadline(server, 'Tech news 02: Networks update')).id)
				).find((l) => l.caption === 'Important')?.checked
		)
		.toBe(false);
	await page.locator('summary', { hasText: 'Labels' }).click();

	// Mark unread again: it stays unread.
	await page.getByRole('button', { name: 'Mark unread' }).click();
	await expect
		.poll(async () => (await serverHeadline(server, 'Tech news 02: Networks update')).unread)
		.toBe(true);

	// Catch up the whole feed.
	await page.locator('summary', { hasText: 'Mark read' }).click();
	await page.getByRole('button', { name: 'All articles' }).click();
	await expect.poll(() => serverUnread(server, 1)).toBe(0);
	await expect(
		feeds(page)
			.getByRole('link', { name: /^Testbed Tech News/ })
			.locator('.count')
	).toHaveCount(0);
	await expect(headlineList(page).locator('.headline.unread')).toHaveCount(0);
});

test('next/previous article without going back, and attachments with players', async ({ page }) => {
	await signIn(page);
	await feeds(page)
		.getByRole('link', { name: /^Testbed Podcast/ })
		.click();
	await headlineLink(page, /Episode 1: a tone/).click();
	await expect(page.getByRole('heading', { level: 1, name: /Episode 1/ })).toBeVisible();
	// Audio gets the app's own controls (Debian's headless Chromium paints no built-in ones).
	await expect(page.locator('audio')).toHaveCount(1);
	await expect(page.getByRole('button', { name: /Play/ })).toBeVisible();
	await page.getByRole('link', { name: 'Next article' }).click();
	await expect(page.getByRole('heading', { level: 1, name: /Episode 2/ })).toBeVisible();
	await expect(page.locator('video[controls]')).toHaveCount(1);
	await page.getByRole('link', { name: 'Previous article' }).click();
	await expect(page.getByRole('heading', { level: 1, name: /Episode 1/ })).toBeVisible();
	const original = page.getByRole('link', { name: /Open original/ });
	await expect(original).toHaveAttribute('target', '_blank');
	await expect(original).toHaveAttribute('rel', 'noopener noreferrer');
});
