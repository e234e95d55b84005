/**
 * Search without a network: articles cached while online are found by the search box offline,
 * from the local index, labelled as this device's results, with the query syntax (title:, -word,
 * phrases), scoped like the server's search; a result opens offline. Phone and desktop.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import { cutNetwork, signIn, starButtons } from './offline-support';
import { openSearch, seriousA11yViolations } from './reader-support';

const TECH = 'Testbed Tech News';
const ON_DEVICE = /Results on this device/;

// Each test reads an article (which marks it read on the server): each starts from the seed.
test.beforeEach(() => {
	resetTestbed();
});

const rows = starButtons;

/** Opens a feed from the home screen's tree (beside the list on a desktop, alone on a phone). */
async function goToFeed(page: Page, title: string): Promise<void> {
	await page.getByRole('link', { name: 'Reader', exact: true }).click();
	const tree = page.locator('nav[aria-label="Feeds"]');
	await expect(tree).toBeVisible();
	await tree.getByRole('link', { name: title }).click();
	await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

async function search(page: Page, text: string, where: 'This feed' | 'All feeds' = 'This feed') {
	await openSearch(page);
	await page.getByLabel('Search headlines').fill(text);
	await page.getByLabel('Search in').selectOption({ label: where });
	await page.getByRole('button', { name: 'Search', exact: true }).click();
}

/** The titles the list shows, from the rows' star buttons (`Star “…”`). */
async function titles(page: Page): Promise<string[]> {
	const labels = await rows(page).evaluateAll((buttons) =>
		buttons.map((b) => b.getAttribute('aria-label') ?? '')
	);
	return labels.map((l) => l.replace(/^Star “/, '').replace(/”$/, ''));
}

async function searchOffline(page: Page): Promise<void> {
	// Online: the server answers, and nothing says "on this device". (The test bed's full-text
	// search finds no plain word in its seeded articles; its title: search does.)
	await goToFeed(page, TECH);
	await search(page, 'title:databases');
	await expect(rows(page)).toHaveCount(3);
	await expect(page.getByText(ON_DEVICE)).toHaveCount(0);
	await page.getByRole('button', { name: 'Clear' }).click();

	// Read one article online: its body is cached, so it opens offline later.
	await page
		.getByRole('link', { name: /Tech news 05: Databases update/ })
		.first()
		.click();
	await expect(page.getByRole('heading', { name: 'Tech news 05: Databases update' })).toBeVisible();
	// Another feed, so the search below must look beyond what is on screen.
	await goToFeed(page, 'Testbed Podcast');

	await cutNetwork(page.context());

	await search(page, 'databases', 'All feeds');
	await expect(page.getByText(ON_DEVICE)).toBeVisible();
	await expect
		.poll(() => titles(page))
		.toEqual([
			'Tech news 01: Databases update',
			'Tech news 05: Databases update',
			'Tech news 09: Databases update'
		]);

	// title:, a phrase, -word and a prefix of the last word, in the open feed only.
	await goToFeed(page, TECH);
	await search(page, 'title:"tech news" -databases -networks compil');
	await expect(page.getByText(ON_DEVICE)).toBeVisible();
	// (Tech news 12 matches too, but it is read: the list, in its default "Adaptive" view of a
	// feed with unread articles, never brought it to this device.)
	await expect
		.poll(() => titles(page))
		.toEqual(['Tech news 04: Compilers update', 'Tech news 08: Compilers update']);
	expect(await seriousA11yViolations(page), 'results on this device').toEqual([]);

	// Scoped like the server's search: the podcast feed holds none of these.
	await goToFeed(page, 'Testbed Podcast');
	await search(page, 'databases');
	await expect(page.getByText('No article kept on this device matches this search.')).toBeVisible();

	// A result opens with no network.
	await search(page, 'title:databases tech desk', 'All feeds');
	await expect(page.getByText(ON_DEVICE)).toBeVisible();
	await page
		.getByRole('link', { name: /Tech news 05: Databases update/ })
		.first()
		.click();
	await expect(page.getByRole('heading', { name: 'Tech news 05: Databases update' })).toBeVisible();
	await expect(page.locator('article')).toContainText('Tech news item 5.');
}

test('desktop: an offline search finds cached articles on this device and opens one', async ({
	page
}) => {
	await signIn(page);
	await searchOffline(page);
});

test.describe('phone', () => {
	test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

	test('phone: an offline search finds cached articles on this device and opens one', async ({
		page
	}) => {
		await signIn(page);
		await searchOffline(page);
	});
});
