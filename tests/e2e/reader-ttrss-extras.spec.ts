/**
 * The rest of what tt-rss offers a reader, against the real server: the Published and "With a
 * note" view modes, search in the open feed's category, tags that open their list, the comments
 * link, a view mode kept per feed, and opening an article without marking it read. Desktop and
 * phone; axe on each new control.
 */
import type { Page } from '@playwright/test';
import { ArticleField, UpdateMode } from '../../src/lib/api/index';
import { resetTestbed } from '../support/testbed';
import {
	headlineLink,
	headlineList,
	openFeed,
	seriousA11yViolations,
	serverClient,
	serverHeadline,
	openSearch,
	openViewMenu,
	signIn
} from './reader-support';
import { expect, test } from './support/fixtures';

test.describe.configure({ mode: 'serial' });

test.beforeEach(() => {
	resetTestbed();
});

/** Opens a feed from the home screen's tree (beside the list on a desktop, alone on a phone). */
async function openFromHome(page: Page, name: RegExp, firstRow: RegExp): Promise<void> {
	await page.getByRole('link', { name: 'Reader', exact: true }).click();
	await openFeed(page, name, firstRow);
}

/** The list's Show choice, its menu opened. */
async function show(page: Page) {
	await openViewMenu(page);
	return page.getByRole('combobox', { name: 'Show' });
}
const rows = (page: Page) => headlineList(page).getByRole('listitem');
const articleActions = (page: Page) => page.getByRole('toolbar', { name: 'Article actions' });

async function search(page: Page, text: string, where: string): Promise<void> {
	await openSearch(page);
	await page.getByRole('searchbox', { name: 'Search headlines' }).fill(text);
	await page.getByRole('combobox', { name: 'Search in' }).selectOption({ label: where });
	await page.getByRole('button', { name: 'Search', exact: true }).click();
}

for (const layout of ['desktop', 'phone'] as const) {
	test.describe(layout, () => {
		if (layout === 'phone') {
			test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
		}

		test('Published lists only published articles; With a note only noted ones', async ({
			page
		}) => {
			const client = await serverClient();
			const five = await serverHeadline(client, 'Tech news 05: Databases update');
			await client.updateArticle({
				articleIds: [five.id],
				field: ArticleField.Published,
				mode: UpdateMode.True
			});
			await signIn(page);
			await openFromHome(page, /^Testbed Tech News/, /Tech news 02/);
			await (await show(page)).selectOption({ label: 'Published' });
			await expect(rows(page)).toHaveCount(2);
			await expect(headlineLink(page, /Tech news 05/)).toBeVisible();
			await expect(headlineLink(page, /Tech news 02/)).toBeVisible();
			expect(await seriousA11yViolations(page), 'published list').toEqual([]);

			await (await show(page)).selectOption({ label: 'With a note' });
			await expect(rows(page)).toHaveCount(1);
			await expect(headlineLink(page, /Tech news 01/)).toBeVisible();
		});

		test('a view mode chosen in a feed survives a reload and stays in that feed', async ({
			page
		}) => {
			await signIn(page);
			await openFromHome(page, /^Testbed Tech News/, /Tech news 02/);
			// Adaptive (the default) hides the read Tech news 10–12.
			await expect(headlineLink(page, /Tech news 12/)).toHaveCount(0);
			await (await show(page)).selectOption({ label: 'All articles' });
			await expect(headlineLink(page, /Tech news 12/)).toBeVisible();
			await page.reload();
			await expect(await show(page)).toHaveValue('all_articles');
			await expect(headlineLink(page, /Tech news 12/)).toBeVisible();

			await openFromHome(page, /^Testbed Web Dev/, /Web dev 01/);
			await expect(await show(page)).toHaveValue('adaptive');
			// Web dev 08 is read: not in the adaptive list of a feed with unread articles.
			await expect(headlineLink(page, /Web dev 08/)).toHaveCount(0);
		});

		test('a search in the feed’s category finds only that category’s matches', async ({ page }) => {
			await signIn(page);
			await openFromHome(page, /^Testbed Tech News/, /Tech news 02/);
			// tt-rss's `title:` matches within titles (the test bed's full-text index is empty).
			await search(page, 'title:es', 'This feed');
			await expect(headlineLink(page, /Tech news 01/)).toBeVisible();
			await expect(headlineLink(page, /Web dev/)).toHaveCount(0);

			await search(page, 'title:es', 'Category: Tech');
			// Tech holds Tech News and, inside Web, Web Dev: both; World's and others' never.
			await expect(headlineLink(page, /Web dev 03: Accessibility/)).toBeVisible();
			await expect(headlineLink(page, /Tech news 01/)).toBeVisible();
			await expect(headlineLink(page, /Entities & quotes/)).toHaveCount(0);
			await expect(headlineLink(page, /Frames and objects/)).toHaveCount(0);
			expect(await seriousA11yViolations(page), 'category search').toEqual([]);

			// All feeds finds what the category left out. A narrower query than "es": "es" matches
			// more than a page of the test bed's titles, in an order the seeding's fetches decide.
			await search(page, 'title:entities', 'Category: Tech');
			await expect(headlineLink(page, /Entities & quotes/)).toHaveCount(0);
			await search(page, 'title:entities', 'All feeds');
			await expect(headlineLink(page, /Entities & quotes/)).toBeVisible();
		});

		test('a tag opens its articles; the comments link is in the header', async ({ page }) => {
			await signIn(page);
			await openFromHome(page, /^Testbed Web Dev/, /Web dev 01/);
			await headlineLink(page, /Web dev 01: IndexedDB/).click();
			const tags = page.getByRole('list', { name: 'Labels and tags' });
			await expect(tags.getByRole('link', { name: 'Articles tagged web' })).toBeVisible();
			// Feed tags of the test bed: Web Dev's entries carry "web", some also "pwa".
			await tags.getByRole('link', { name: 'Articles tagged pwa' }).click();
			await expect(page).toHaveURL(/\/tag\/pwa$/);
			await expect(page.getByRole('heading', { level: 1, name: '#pwa' })).toBeVisible();
			await expect(headlineLink(page, /Web dev 03: Accessibility/)).toBeVisible();
			// Web dev 02 is tagged "web" only.
			await expect(headlineLink(page, /Web dev 02/)).toHaveCount(0);

			await openFromHome(page, /^Testbed Tech News/, /Tech news 03/);
			await headlineLink(page, /Tech news 03/).click();
			const comments = page.locator('.byline').getByRole('link', { name: /^Comments/ });
			await expect(comments).toHaveAttribute('href', 'http://feeds.test/tech-news/3/comments');
			await expect(comments).toHaveAttribute('target', '_blank');
			expect(await seriousA11yViolations(page), 'article with tags and comments').toEqual([]);
			await openFromHome(page, /^Testbed Tech News/, /Tech news 02/);
			await headlineLink(page, /Tech news 02/).click();
			await expect(page.getByRole('heading', { level: 1, name: /Tech news 02/ })).toBeVisible();
			await expect(page.getByRole('link', { name: /^Comments/ })).toHaveCount(0);
		});

		test('with "Leave an article unread when it opens", opening and j leave it unread on the server', async ({
			page
		}) => {
			await signIn(page);
			await page.getByRole('link', { name: 'Settings' }).click();
			const keep = page.getByRole('checkbox', { name: /Leave an article unread when it opens/ });
			await keep.check();
			expect(await seriousA11yViolations(page), 'settings').toEqual([]);
			await openFromHome(page, /^Testbed Tech News/, /Tech news 04/);
			await headlineLink(page, /Tech news 04/).click();
			await expect(page.getByRole('heading', { level: 1, name: /Tech news 04/ })).toBeVisible();
			await expect(articleActions(page).getByRole('button', { name: 'Mark read' })).toBeVisible();
			// The keyboard's next article too.
			await page.keyboard.press('j');
			await expect(page.getByRole('heading', { level: 1, name: /Tech news 05/ })).toBeVisible();
			// A star sent after both opens: once the server has it, a mark-read would have been sent.
			await articleActions(page).getByRole('button', { name: 'Star', exact: true }).click();
			const client = await serverClient();
			await expect
				.poll(async () => (await serverHeadline(client, 'Tech news 05: Databases update')).marked)
				.toBe(true);
			for (const title of ['Tech news 04: Compilers update', 'Tech news 05: Databases update']) {
				expect((await serverHeadline(client, title)).unread, title).toBe(true);
			}
		});
	});
}
