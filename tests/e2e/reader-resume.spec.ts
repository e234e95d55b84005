/**
 * Resume where the reader left off, against the real test bed: a reload deep in a long list (past
 * the first pages, so the start must load more to get there) comes back to the same headline at
 * the top, the same open article and its scroll; the start address `/` (the installed app's start)
 * goes there too, offline as well; a start at any other address (a shared page, a notification's
 * article) wins. Desktop (both panes) and phone (one pane at a time).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import { cutNetwork, restoreNetwork, signIn } from './offline-support';
import { feeds, headlineList, serverClient } from './reader-support';

const ROW_HEIGHT = 116;
/** Past the first page (50) and into the second: the start must load more to find it. */
const DEEP_ROW = 120;

test.beforeAll(() => {
	resetTestbed();
});

// The big feed's items were all entered at one moment: in the server's default order (score, then
// entry time) their order is a tie that each page request may break differently. By the feed's
// own dates the order is the same on every request.
test.beforeEach(async ({ page }) => {
	await page.addInitScript(() =>
		localStorage.setItem('reader.settings', JSON.stringify({ sortOrder: 'feed_dates' }))
	);
});

/** Scrolls the open article's pane part way, once its body is there to scroll. */
async function scrollArticle(page: Page, wanted: number): Promise<number> {
	const pane = page.locator('section.article-pane');
	let scroll = 0;
	await expect
		.poll(async () => {
			scroll = await pane.evaluate((el, top) => {
				el.scrollTop = Math.min(top, el.scrollHeight - el.clientHeight);
				return el.scrollTop;
			}, wanted);
			return scroll;
		})
		.toBeGreaterThan(20);
	return scroll;
}

function viewport(page: Page) {
	return headlineList(page).locator('xpath=..');
}

/** The id of the headline at the list's top edge and the pixels scrolled past its top. */
async function topRow(page: Page): Promise<{ id: number; offset: number }> {
	return viewport(page).evaluate((el, rowHeight) => {
		const index = Math.floor(el.scrollTop / rowHeight);
		const rows = [...el.querySelectorAll<HTMLElement>('[role="listitem"]')];
		const row = rows.find((r) => r.getAttribute('aria-posinset') === String(index + 1));
		const id = Number(row?.querySelector('[data-article-id]')?.getAttribute('data-article-id'));
		return { id, offset: Math.round(el.scrollTop - index * rowHeight) };
	}, ROW_HEIGHT);
}

async function storedRecord(page: Page): Promise<{
	path: string;
	anchor?: { id: number; offset: number };
	scroll?: number;
} | null> {
	return page.evaluate(() => {
		const raw = localStorage.getItem('reader.resume');
		return raw ? (JSON.parse(raw) as { path: string }) : null;
	});
}

/**
 * The headline at the top as written for the next start, once it is what the screen shows: written
 * when scrolling stops (and again if rows arrive or leave above it; the server's order of
 * articles entered at the same moment may differ from one page request to the next).
 */
async function leftAt(page: Page): Promise<{ id: number; offset: number }> {
	let shown: { id: number; offset: number } | undefined;
	await expect
		.poll(async () => {
			shown = await topRow(page);
			return (await storedRecord(page))?.anchor;
		})
		.toEqual(expect.objectContaining({ id: expect.any(Number) }));
	await expect
		.poll(async () => {
			shown = await topRow(page);
			return JSON.stringify((await storedRecord(page))?.anchor) === JSON.stringify(shown);
		})
		.toBe(true);
	if (!shown) throw new Error('no headline at the top');
	return shown;
}

/** Opens the big feed and scrolls its list to DEEP_ROW (loading the pages on the way). */
async function scrollDeep(page: Page): Promise<{ id: number; offset: number }> {
	await feeds(page)
		.getByRole('link', { name: /^Testbed Big Feed/ })
		.click();
	await expect(headlineList(page).getByRole('link').first()).toBeVisible();
	const target = DEEP_ROW * ROW_HEIGHT + 30;
	await expect
		.poll(async () => {
			await viewport(page).evaluate((el, top) => (el.scrollTop = top), target);
			return viewport(page).evaluate((el) => el.scrollTop);
		})
		.toBe(target);
	expect((await topRow(page)).offset).toBe(30);
	return leftAt(page);
}

test.describe('desktop', () => {
	test.use({ viewport: { width: 1280, height: 420 } });

	// FIXME (issue 14, open): in Chromium the list comes back at its top, not at the headline deep
	// in the big feed (the place and the open article do come back); the search for the anchor row
	// across server pages does not land. Kept as the target; not run until fixed.
	test.fixme('a reload deep in a list comes back to the same headline, article and scroll; so does `/`, offline too', async ({
		page,
		context
	}) => {
		await signIn(page);
		const deep = await scrollDeep(page);

		// An article opened from there (the click may scroll its row fully into view); its pane
		// scrolled.
		await headlineList(page).locator(`[data-article-id="${deep.id}"] a.link`).click();
		await expect(page).toHaveURL(new RegExp(`/feed/6/${deep.id}$`));
		const top = await leftAt(page);
		const pane = page.locator('section.article-pane');
		await expect(pane.locator('article')).toBeVisible();
		const scroll = await scrollArticle(page, 150);
		await expect.poll(async () => (await storedRecord(page))?.scroll).toBe(scroll);

		for (const start of ['reload', '/', 'offline /'] as const) {
			if (start === 'reload') await page.reload();
			else {
				if (start === 'offline /') await cutNetwork(context);
				await page.goto('/');
			}
			await expect(page, start).toHaveURL(new RegExp(`/feed/6/${deep.id}$`));
			await expect(pane.locator('article')).toBeVisible();
			await expect.poll(() => topRow(page), { message: start }).toEqual(top);
			await expect.poll(() => pane.evaluate((el) => el.scrollTop), { message: start }).toBe(scroll);
		}
		await restoreNetwork(context);
	});

	test('a start at a shared page or an article’s own address wins over the stored place', async ({
		page
	}) => {
		await signIn(page);
		await scrollDeep(page);

		await page.goto('/share?title=Shared&url=http%3A%2F%2Ffeeds.test%2Fshared');
		await expect(page.getByRole('heading', { name: 'Share a page to Published' })).toBeVisible();
		await expect(page).toHaveURL(/\/share\?/);

		// A notification opens its article: that one, at the top of its own list.
		const client = await serverClient();
		const { headlines } = await client.getHeadlines({ feedId: 1, limit: 1 });
		const article = headlines[0];
		if (!article) throw new Error('no article in feed 1');
		await page.goto(`/feed/1/${article.id}`);
		await expect(page.locator('section.article-pane article h1')).toHaveText(article.title);
		await expect(page).toHaveURL(new RegExp(`/feed/1/${article.id}$`));
		expect(await viewport(page).evaluate((el) => el.scrollTop)).toBe(0);
		// And it is now the place to resume.
		await expect.poll(async () => (await storedRecord(page))?.path).toBe(`/feed/1/${article.id}`);
	});
});

test.describe('phone', () => {
	// Short enough that an article of the big feed scrolls.
	test.use({ viewport: { width: 390, height: 420 }, hasTouch: true, isMobile: true });

	// FIXME (issue 14, open): the article's scroll comes back short (19 of 120 px) when its row is
	// not among the first rows loaded: the same anchor search as above.
	test.fixme('the list position and the article view come back after a start at `/`', async ({
		page
	}) => {
		await signIn(page);
		// The phone's home is the feed list.
		await page.goto('/');
		const top = await scrollDeep(page);

		await page.goto('/');
		await expect(page).toHaveURL(/\/feed\/6$/);
		await expect.poll(() => topRow(page)).toEqual(top);

		// An article, read part way: the start opens it at that point, and Back finds the list
		// where it was.
		// (A click event, not a pointer: nothing scrolls the row into view first.)
		await headlineList(page).locator(`[data-article-id="${top.id}"] a.link`).dispatchEvent('click');
		await expect(page).toHaveURL(new RegExp(`/feed/6/${top.id}$`));
		const pane = page.locator('section.article-pane');
		await expect(pane.locator('article')).toBeVisible();
		const scroll = await scrollArticle(page, 120);
		await expect.poll(async () => (await storedRecord(page))?.scroll).toBe(scroll);

		await page.goto('/');
		await expect(page).toHaveURL(new RegExp(`/feed/6/${top.id}$`));
		await expect.poll(() => pane.evaluate((el) => el.scrollTop)).toBe(scroll);
		await page.getByRole('link', { name: 'Back' }).click();
		await expect(page).toHaveURL(/\/feed\/6$/);
		await expect.poll(() => topRow(page)).toEqual(top);
	});
});
