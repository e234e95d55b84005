/**
 * The feed list's menus against the real server: "Update this feed now" asks tt-rss to fetch the
 * feed once (not updateFeed plus getHeadlines' force_update), and the Sort menu appears only where
 * the server's API level honours `order_by` (5, host 1.7.6), the search form only from level 2.
 */
import type { Page, Request } from '@playwright/test';
import { resetTestbed } from '../support/testbed';
import { feeds, headlineLink, openSearch, openViewMenu, signIn } from './reader-support';
import { expect, test } from './support/fixtures';

test.describe.configure({ mode: 'serial' });

test.beforeEach(() => {
	resetTestbed();
});

/** Every API request body the page sends from now on. */
function apiBodies(page: Page): Record<string, unknown>[] {
	const bodies: Record<string, unknown>[] = [];
	page.on('request', (request: Request) => {
		if (!request.url().includes('/tt-rss/api/')) return;
		bodies.push(JSON.parse(request.postData() ?? '{}') as Record<string, unknown>);
	});
	return bodies;
}

async function openTechNews(page: Page): Promise<void> {
	await feeds(page)
		.getByRole('link', { name: /^Testbed Tech News/ })
		.click();
	await expect(headlineLink(page, /Tech news 02: Networks update/)).toBeVisible();
}

test('"Update this feed now" updates the feed once', async ({ page }) => {
	await signIn(page);
	await openTechNews(page);
	const bodies = apiBodies(page);
	await page.locator('summary[aria-label="More feed actions"]').click();
	await page.getByRole('button', { name: 'Update this feed now' }).click();
	await expect(page.getByText('“Testbed Tech News” was updated.')).toBeVisible();
	const updates = bodies.filter(
		(b) => b.op === 'updateFeed' || (b.op === 'getHeadlines' && b.force_update === true)
	);
	expect(updates).toEqual([expect.objectContaining({ op: 'updateFeed', feed_id: '1' })]);
	// The list is read again to show what the update brought: once, or twice when the start's sync
	// ends meanwhile and the open list takes its new rows too (the sync's reads of the starred and
	// published sets are other feeds').
	const reads = bodies.filter((b) => b.op === 'getHeadlines' && b.feed_id === '1').length;
	expect(reads).toBeGreaterThanOrEqual(1);
	expect(reads).toBeLessThanOrEqual(2);
});

test('the Sort menu is shown where the server honours order_by (level 15)', async ({ page }) => {
	await signIn(page);
	await openTechNews(page);
	await openViewMenu(page);
	await expect(page.getByRole('combobox', { name: 'Sort' })).toBeVisible();
});

/** The real server's replies, with the API level an older server reports. */
async function reportLevel(page: Page, level: number): Promise<void> {
	await page.route('**/tt-rss/api/', async (route) => {
		const response = await route.fetch();
		const body = JSON.parse(route.request().postData() ?? '{}') as { op?: string };
		if (body.op !== 'login' && body.op !== 'getApiLevel') return route.fulfill({ response });
		const reply = (await response.json()) as { content: Record<string, unknown> };
		if (body.op === 'login') reply.content.api_level = level;
		else reply.content.level = level;
		return route.fulfill({ response, json: reply });
	});
}

test('the Sort menu is hidden where the server ignores order_by (level 4)', async ({ page }) => {
	await reportLevel(page, 4);
	const bodies = apiBodies(page);
	await signIn(page);
	await openTechNews(page);
	expect(bodies.some((b) => b.op === 'getApiLevel' || b.op === 'login')).toBe(true);
	await openViewMenu(page);
	await expect(page.getByRole('combobox', { name: 'Sort' })).toHaveCount(0);
	await openSearch(page);
	expect(bodies.filter((b) => b.op === 'getHeadlines' && 'order_by' in b)).toEqual([]);
});

test('no search where the server has none (level 1)', async ({ page }) => {
	await reportLevel(page, 1);
	await signIn(page);
	await openTechNews(page);
	await openViewMenu(page);
	await expect(page.getByRole('searchbox', { name: 'Search headlines' })).toHaveCount(0);
	await expect(page.getByRole('button', { name: 'Open search' })).toHaveCount(0);
});
