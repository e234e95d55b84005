/**
 * Resume where the reader left off, against the real test bed: a reload deep in a long list (past
 * the first pages, so the start must load more to get there) comes back to the same headline at
 * the top, the same open article and its scroll; the start address `/` (the installed app's start)
 * goes there too, offline as well; a start at any other address (a shared page, a notification's
 * article) wins. Desktop (both panes) and phone (one pane at a time).
 *
 * The lists show unread articles (the default view): the article opened at the top of the list is
 * read by then, and the server's list no longer holds it. The row that followed it takes its place.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import { cutNetwork, outboxCount, readStore, restoreNetwork, signIn } from './offline-support';
import { feeds, headlineList, listAnswered, serverClient } from './reader-support';
import { ROW_HEIGHTS } from '../../src/lib/components/row-heights';

/** The default density's row height (the app's own figure). */
const ROW_HEIGHT = ROW_HEIGHTS.comfortable;
/** Past the first page (50) and into the second: the start must load more to find it. */
const DEEP_ROW = 120;

test.beforeAll(() => {
	resetTestbed();
});

// Sorted by the feed's own dates: an order of the reader's, where a refresh cannot ask for new ids
// only, and must merge the server's first rows into the pages loaded (the default order's refresh
// is tested in reader-paging.spec.ts).
test.beforeEach(async ({ page }) => {
	await page.addInitScript(() =>
		localStorage.setItem('reader.settings', JSON.stringify({ sortOrder: 'feed_dates' }))
	);
});

/**
 * Scrolls the open article's pane part way, once its body is there to scroll. The test bed's
 * articles are short: since the design pass gave the text the top of the screen, one fits in a
 * whole window, so the window is made low enough for the pane to scroll (its width, and so the
 * layout, stay; the starts after it keep that size).
 */
async function scrollArticle(page: Page, wanted: number): Promise<number> {
	const pane = page.locator('section.article-pane');
	const size = page.viewportSize();
	if (size) await page.setViewportSize({ width: size.width, height: 200 });
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

/** The id of the list's row at `index`, once it is built (it must be on screen or near it). */
async function rowIdAt(page: Page, index: number): Promise<number> {
	let id = NaN;
	await expect
		.poll(async () => {
			id = await viewport(page).evaluate((el, i) => {
				const row = [...el.querySelectorAll<HTMLElement>('[role="listitem"]')].find(
					(r) => r.getAttribute('aria-posinset') === String(i + 1)
				);
				return Number(row?.querySelector('[data-article-id]')?.getAttribute('data-article-id'));
			}, index);
			return id;
		})
		.toBeGreaterThan(0);
	return id;
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

/** The big feed's unread articles as the server lists them now, in the order the tests use. */
async function serverUnreadIds(): Promise<number[]> {
	const client = await serverClient();
	const ids: number[] = [];
	for (let skip = 0; ; skip += 200) {
		const { headlines } = await client.getHeadlines({
			feedId: 6,
			viewMode: 'unread',
			orderBy: 'feed_dates',
			limit: 200,
			skip
		});
		ids.push(...headlines.map((h) => h.id));
		if (headlines.length < 200) return ids;
	}
}

/** Whether the big feed's list as kept on the device (IndexedDB `lists`) holds this article. */
async function cachedListHolds(page: Page, id: number): Promise<boolean> {
	const lists = await readStore<{ key: string; ids: number[] }[]>(page, 'lists');
	return lists.some((list) => list.key.startsWith('[6,') && list.ids.includes(id));
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
 * when scrolling stops (and again if rows arrive or leave above it).
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
			const anchor = (await storedRecord(page))?.anchor;
			return anchor?.id === shown.id && anchor.offset === shown.offset;
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
	// The list shows the device's copy first (the sign-in's sync may have kept more rows than a
	// page); the server's first page then takes its place, and a scroll made before that is clamped
	// to the shorter list (in CI: offset 3 instead of 30). Scroll once it is the server's list.
	await listAnswered(page);
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

	// FIXME (stop 33, in the closing note): since the design pass a test-bed article fits the
	// window, so the pane is scrolled in a 200 px high one; the offline start then comes back one
	// row off (reload and `/` pass). Not yet known whether the app or the low window is at fault.
	test('a reload deep in a list comes back to the same headline, article and scroll; so does `/`, offline too', async ({
		page,
		context
	}) => {
		await signIn(page);
		const deep = await scrollDeep(page);
		await page.reload();
		await expect(page).toHaveURL(/\/feed\/6$/);
		await expect.poll(() => topRow(page)).toEqual(deep);

		// An article opened from there (the click scrolls its row fully into view); its pane
		// scrolled.
		await headlineList(page).locator(`[data-article-id="${deep.id}"] a.link`).click();
		await expect(page).toHaveURL(new RegExp(`/feed/6/${deep.id}$`));
		const left = await leftAt(page);
		expect(left.id).toBe(deep.id);
		const pane = page.locator('section.article-pane');
		await expect(pane.locator('article')).toBeVisible();
		const scroll = await scrollArticle(page, 40);
		await expect.poll(async () => (await storedRecord(page))?.scroll).toBe(scroll);
		// Read now, the article leaves the server's list of unread ones: the row below it comes up.
		const top = { id: await rowIdAt(page, DEEP_ROW + 1), offset: 0 };
		await expect.poll(() => serverUnreadIds()).not.toContain(deep.id);

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
			// The next start shows the device's copy of the list first: the server's answer written
			// there (a page left at once can lose that write; offline, the older copy would still
			// hold the read article, and the list keeps the open article's row in view).
			await expect.poll(() => cachedListHolds(page, deep.id), { message: start }).toBe(false);
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

	// Chaos seeds 2014, 2019 (docs/reliability.md): the start opened the article again and marked it
	// read, overturning the reader's last action.
	// FIXME (stop 33, in the closing note): after the design and chaos merges, the Star of the
	// article bar does not toggle on the first click after a reload that resumes the article
	// (aria-pressed stays false; before a reload it works). A defect to find, not a test to loosen.
	test('an article marked unread while open stays unread after a reload and a start at `/`', async ({
		page
	}) => {
		await signIn(page);
		await page.goto('/feed/1');
		await listAnswered(page);
		const row = headlineList(page).locator('[data-article-id].unread').first();
		const id = Number(await row.getAttribute('data-article-id'));
		await row.locator('a.link').click();
		const actions = page.getByRole('toolbar', { name: 'Article actions' });
		const read = actions.getByRole('button', { name: /^Mark (read|unread)$/ });
		await expect(read).toHaveAttribute('aria-pressed', 'true');
		await read.click();
		await expect(read).toHaveAttribute('aria-pressed', 'false');
		const client = await serverClient();
		const onServer = async () => (await client.getArticle({ articleIds: [id] }))[0];
		await expect.poll(async () => (await onServer())?.unread).toBe(true);

		// The test bed's articles come starred or not (feed 1's first unread one is starred): the star
		// toggles from the server's own state.
		let starred = (await onServer())?.marked ?? false;
		for (const start of ['reload', '/'] as const) {
			if (start === 'reload') await page.reload();
			else await page.goto('/');
			await expect(page, start).toHaveURL(new RegExp(`/feed/1/${id}$`));
			await expect(page.locator('section.article-pane article')).toBeVisible();
			// The start's list answered (the article view is the live one, not the device's first copy).
			await listAnswered(page);
			// A later change of the same article goes through the same outbox: once the server has
			// it, a mark-read made by the start would have reached it too.
			const star = actions.getByRole('button', { name: 'Star', exact: true });
			await expect(star, start).toHaveAttribute('aria-pressed', String(starred));
			starred = !starred;
			await star.click();
			await expect(star, start).toHaveAttribute('aria-pressed', String(starred));
			await expect.poll(async () => (await onServer())?.marked, { message: start }).toBe(starred);
			await expect.poll(() => outboxCount(page), { message: start }).toBe(0);
			expect((await onServer())?.unread, start).toBe(true);
			await expect(read, start).toHaveAttribute('aria-pressed', 'false');
			await expect(headlineList(page).locator(`[data-article-id="${id}"]`)).toHaveClass(/unread/);
		}
	});
});

test.describe('phone', () => {
	// Short enough that an article of the big feed scrolls, by more than the app bar's height: the
	// bar is taller while its status line says "updating" (it wraps), which leaves the pane
	// shorter and the article more to scroll than after the next start.
	test.use({ viewport: { width: 390, height: 360 }, hasTouch: true, isMobile: true });

	// (A sync that found new articles used to replace a list in an order of the reader's with its
	// first page, 50 rows: the list, back at its headline, jumped to about row 50 in 2 of 11 runs.
	// A refresh now merges the server's first rows into the loaded ones; list-merge.ts.)
	test('the list position and the article view come back after a start at `/`', async ({
		page
	}) => {
		await signIn(page);
		// The phone's home is the feed list.
		await page.goto('/');
		const top = await scrollDeep(page);

		await page.goto('/');
		await expect(page).toHaveURL(/\/feed\/6$/);
		await expect.poll(() => topRow(page)).toEqual(top);
		const below = await rowIdAt(page, DEEP_ROW + 1);

		// An article, read part way: the start opens it at that point, and Back finds the list
		// where it was.
		// (A click event, not a pointer: nothing scrolls the row into view first.)
		await headlineList(page).locator(`[data-article-id="${top.id}"] a.link`).dispatchEvent('click');
		await expect(page).toHaveURL(new RegExp(`/feed/6/${top.id}$`));
		const pane = page.locator('section.article-pane');
		await expect(pane.locator('article')).toBeVisible();
		const scroll = await scrollArticle(page, 50);
		await expect.poll(async () => (await storedRecord(page))?.scroll).toBe(scroll);

		await page.goto('/');
		await expect(page).toHaveURL(new RegExp(`/feed/6/${top.id}$`));
		await expect.poll(() => pane.evaluate((el) => el.scrollTop)).toBe(scroll);
		await page.getByRole('link', { name: 'Back' }).click();
		await expect(page).toHaveURL(/\/feed\/6$/);
		// The article is read: gone from the list of unread ones, the row below it is at the top.
		await expect.poll(() => topRow(page)).toEqual({ id: below, offset: 0 });
	});
});
