/**
 * Paging a list of unread articles while reading it, against the real test bed: the articles read
 * on the first page leave the server's list of unread ones, so the next page must start that many
 * rows earlier (tt-rss pages with `skip`); otherwise the rows after the first page that took their
 * places on the server are never shown.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import { feeds, headlineList, serverClient, signIn } from './reader-support';
import { ROW_HEIGHTS } from '../../src/lib/components/row-heights';

/** The default density's row height (the app's own figure). */
const ROW_HEIGHT = ROW_HEIGHTS.comfortable;

test.beforeAll(() => {
	resetTestbed();
});

function viewport(page: Page) {
	return headlineList(page).locator('xpath=..');
}

/** The title of the list's row at `index`, once the list is scrolled there. */
async function titleAt(page: Page, index: number): Promise<string | undefined> {
	await viewport(page).evaluate((el, top) => (el.scrollTop = top), index * ROW_HEIGHT);
	return viewport(page).evaluate((el, i) => {
		const row = [...el.querySelectorAll<HTMLElement>('[role="listitem"]')].find(
			(r) => r.getAttribute('aria-posinset') === String(i + 1)
		);
		return row?.querySelector('.title')?.textContent ?? undefined;
	}, index);
}

test('articles read on the first page of an unread list do not hide rows of the next page', async ({
	page
}) => {
	await signIn(page);
	// The first sync over: the list this test counts is the one it opened.
	await expect(page.getByTestId('last-updated')).toHaveText(/just now/);
	await expect(page.getByTestId('sync-running')).toHaveCount(0);
	await feeds(page)
		.getByRole('link', { name: /^Testbed Big Feed/ })
		.click();
	// The default view lists unread articles: items 001–300, newest first; the first page is 50.
	await expect(headlineList(page)).toHaveAttribute('data-count', '50');

	const read = ['002', '003', '004'];
	for (const n of read) {
		await headlineList(page)
			.getByRole('link', { name: new RegExp(`Big feed item ${n} \\(`) })
			.click();
		await expect(page.locator('section.article-pane article h1')).toContainText(
			`Big feed item ${n}`
		);
	}
	const client = await serverClient();
	await expect
		.poll(async () => {
			const { headlines } = await client.getHeadlines({ feedId: 6, viewMode: 'unread', limit: 5 });
			return headlines.map((h) => h.title.slice(14, 17));
		})
		.toEqual(['001', '005', '006', '007', '008']);

	// The next page: asked for when the end of the first is on screen.
	await viewport(page).evaluate((el) => (el.scrollTop = el.scrollHeight));
	await expect(headlineList(page)).toHaveAttribute('data-count', '250');
	for (const [index, n] of [
		[49, '050'],
		[50, '051'],
		[51, '052'],
		[52, '053'],
		[53, '054'],
		[249, '250']
	] as const) {
		await expect.poll(() => titleAt(page, index)).toMatch(new RegExp(`^Big feed item ${n} `));
	}
});

test('a refresh keeps the server’s order: the feed’s older rows, with higher ids, stay below', async ({
	page
}) => {
	await signIn(page);
	await expect(page.getByTestId('last-updated')).toHaveText(/just now/);
	await feeds(page)
		.getByRole('link', { name: /^Testbed Big Feed/ })
		.click();
	await expect(headlineList(page)).toHaveAttribute('data-count', '50');
	const firstTitles = () =>
		headlineList(page)
			.locator('.title')
			.evaluateAll((titles) => titles.slice(0, 3).map((t) => t.textContent?.slice(0, 17)));
	const before = await firstTitles();
	expect(before[0]).toMatch(/^Big feed item \d{3}/);

	// The feed's first fetch stored its newest item first: the rows below the first page have
	// higher ids than every row shown, and `since_id` finds them as if they were new.
	const refreshed = page.waitForResponse(
		(r) => r.url().includes('/api/') && (r.request().postData() ?? '').includes('"since_id"')
	);
	// The app bar's Refresh: the tree and the open list.
	const refresh = page.getByRole('banner').getByRole('button', { name: 'Refresh', exact: true });
	await refresh.click();
	await refreshed;
	await expect(refresh).toBeEnabled();
	expect(await firstTitles()).toEqual(before);
	await expect(headlineList(page)).toHaveAttribute('data-count', '50');
});
