/**
 * Issue 27's touch gestures and reader settings on a phone (Chrome's own touch events through the
 * DevTools protocol, so the app sees real touches and touch pointer events): a sideways swipe on
 * the open article goes to the next/previous article, a pull down on the list's top refreshes it,
 * the list head hides while scrolling down, and Settings' article typography reaches the body.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import {
	feeds,
	openFeed,
	headlineList,
	listAnswered,
	seriousA11yViolations,
	signIn
} from './reader-support';

const BIG_FEED = /^Testbed Big Feed/;

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

test.beforeAll(() => {
	resetTestbed();
});

/** A finger from `from`, moved by (dx, dy) in steps; returns the lift. */
async function drag(
	page: Page,
	target: Locator,
	dx: number,
	dy: number
): Promise<() => Promise<void>> {
	const box = await target.boundingBox();
	if (!box) throw new Error('not on screen');
	const x = box.x + box.width / 2;
	const y = box.y + Math.min(box.height / 2, 200);
	const cdp = await page.context().newCDPSession(page);
	await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
	for (let i = 1; i <= 10; i++) {
		await cdp.send('Input.dispatchTouchEvent', {
			type: 'touchMove',
			touchPoints: [{ x: x + (dx * i) / 10, y: y + (dy * i) / 10 }]
		});
	}
	return async () => {
		await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
		await cdp.detach();
	};
}

async function openBigFeed(page: Page): Promise<string[]> {
	await signIn(page);
	await openFeed(page, BIG_FEED);
	await listAnswered(page);
	const rows = headlineList(page).locator('[data-article-id]');
	const ids: string[] = [];
	for (const row of (await rows.all()).slice(0, 3)) {
		ids.push((await row.getAttribute('data-article-id')) ?? '');
	}
	return ids;
}

const followsTransform = (page: Page): Promise<string> =>
	page.locator('article .follows').evaluate((element) => getComputedStyle(element).transform);

test('a sideways swipe on the article goes to the next and the previous article', async ({
	page
}) => {
	const [first, second] = await openBigFeed(page);
	await headlineList(page).locator(`[data-article-id="${first}"]`).getByRole('link').click();
	await expect(page).toHaveURL(new RegExp(`/${first}$`));
	const body = page.locator('article .body');
	await expect(body).toContainText(/\S/);

	// Toward the start of the reading (left in English): the next article. It follows the finger.
	let lift = await drag(page, body, -180, 6);
	expect(await followsTransform(page)).not.toBe('none');
	await lift();
	await expect(page).toHaveURL(new RegExp(`/${second}$`));

	// A short swipe does nothing, and the article comes back.
	await expect(page.locator('article .body')).toContainText(/\S/);
	lift = await drag(page, page.locator('article .body'), 40, 0);
	await lift();
	await expect(page).toHaveURL(new RegExp(`/${second}$`));

	// A mostly vertical move is a scroll, not a swipe.
	lift = await drag(page, page.locator('article .body'), 90, -200);
	await lift();
	await expect(page).toHaveURL(new RegExp(`/${second}$`));

	// The other way: the previous article.
	lift = await drag(page, page.locator('article .body'), 180, 0);
	await lift();
	await expect(page).toHaveURL(new RegExp(`/${first}$`));
});

test('in a right-to-left language the swipe mirrors; with reduced motion the article does not follow', async ({
	page
}) => {
	await page.emulateMedia({ reducedMotion: 'reduce' });
	const [first, second] = await openBigFeed(page);
	await headlineList(page).locator(`[data-article-id="${first}"]`).getByRole('link').click();
	const body = page.locator('article .body');
	await expect(body).toContainText(/\S/);
	await page.evaluate(() => (document.documentElement.dir = 'rtl'));

	// A swipe to the left is the previous article in rtl: the first has none, nothing happens.
	let lift = await drag(page, body, -180, 0);
	expect(await followsTransform(page)).toBe('none');
	await lift();
	await expect(page).toHaveURL(new RegExp(`/${first}$`));

	lift = await drag(page, body, 180, 0);
	expect(await followsTransform(page)).toBe('none');
	await lift();
	await expect(page).toHaveURL(new RegExp(`/${second}$`));
});

test('pulling the list down from its top refreshes it (the tree and the list)', async ({
	page
}) => {
	await openBigFeed(page);
	const list = page.locator('.list');
	const marker = page.getByTestId('pull-refresh');

	// Whether the marker ever says it refreshes (a refresh began), seen as it happens.
	await marker.evaluate((element) => {
		const seen = window as unknown as { pullRefreshed: number };
		seen.pullRefreshed = 0;
		new MutationObserver(() => {
			if (element.classList.contains('refreshing')) seen.pullRefreshed++;
		}).observe(element, { attributes: true, attributeFilter: ['class'] });
	});
	const refreshes = (): Promise<number> =>
		page.evaluate(() => (window as unknown as { pullRefreshed: number }).pullRefreshed);

	// A short pull: the marker comes, says to pull, and goes without refreshing.
	const asked: string[] = [];
	page.on('request', (request) => {
		const op = /"op":"(\w+)"/.exec(request.postData() ?? '')?.[1];
		if (request.url().includes('/tt-rss/') && op) asked.push(op);
	});
	let lift = await drag(page, list, 0, 60);
	await expect(marker).toBeVisible();
	await expect(marker).toContainText('Pull to refresh');
	await lift();
	await expect(marker).toBeHidden();
	expect(await refreshes()).toBe(0);

	// Past the threshold: "Release to refresh", then the list and the tree are asked again.
	lift = await drag(page, list, 0, 260);
	await expect(marker).toContainText('Release to refresh');
	const before = asked.length;
	await lift();
	// The app bar's refresh (state/ui refreshAll): the list's headlines and the tree's counts.
	await expect.poll(refreshes).toBe(1);
	await expect.poll(() => asked.slice(before).includes('getHeadlines')).toBe(true);
	await expect
		.poll(() => asked.slice(before).some((op) => op === 'getFeedTree' || op === 'getCounters'))
		.toBe(true);
	await expect(marker).toBeHidden();
	await listAnswered(page);
});

test('the phone list head hides while scrolling down and is back on the way up', async ({
	page
}) => {
	await openBigFeed(page);
	const pane = page.locator('section.list-pane');
	const scrollTo = (top: number): Promise<void> =>
		headlineList(page).evaluate((list, to) => {
			let box: Element | null = list;
			while (box && !/(auto|scroll)/.test(getComputedStyle(box).overflowY)) {
				box = box.parentElement;
			}
			box?.scrollTo({ top: to });
		}, top);
	const shifted = (): Promise<string> =>
		pane.evaluate((element) => getComputedStyle(element).transform);

	await expect.poll(shifted).toBe('none');
	await scrollTo(600);
	await expect(pane).toHaveClass(/head-collapsed/);
	await expect.poll(shifted).not.toBe('none');
	await expect(page.getByRole('heading', { level: 1 })).not.toBeInViewport();
	await scrollTo(400);
	await expect(pane).not.toHaveClass(/head-collapsed/);
	await expect(page.getByRole('heading', { level: 1 })).toBeInViewport();

	// Keyboard focus in the head brings it back too.
	await scrollTo(900);
	await expect(pane).toHaveClass(/head-collapsed/);
	await page.getByRole('button', { name: 'Open search' }).focus();
	await expect(pane).not.toHaveClass(/head-collapsed/);
});

test('the article typography and the unread look chosen in Settings', async ({ page }) => {
	const [first] = await openBigFeed(page);
	const listUrl = page.url();
	await page.getByRole('link', { name: 'Settings' }).click();
	await page.getByRole('radio', { name: 'Sans serif' }).check();
	await page.getByRole('radio', { name: 'Loose' }).check();
	await page.getByRole('radio', { name: 'Narrow' }).check();
	await page.getByRole('radio', { name: 'A dot' }).check();
	expect(await seriousA11yViolations(page)).toEqual([]);
	// Every choice is a finger's target.
	for (const name of ['Sans serif', 'Loose', 'Narrow', 'A dot']) {
		const box = await page
			.locator('label', { has: page.getByRole('radio', { name }) })
			.boundingBox();
		expect(box?.height).toBeGreaterThanOrEqual(44);
	}

	// Kept on this device: after a reload the article body uses them.
	await page.goto(listUrl);
	await expect(headlineList(page).locator('[data-article-id]').first()).toBeVisible();
	// The unread count is a dot now (and still said).
	await expect(page.locator('.list-head .unread')).toHaveCount(0);
	await expect(page.locator('.list-head .unread-dot.shown')).toBeVisible();
	await headlineList(page).locator(`[data-article-id="${first}"]`).getByRole('link').click();
	const content = page.locator('article .article-content');
	await expect(content).toBeVisible();
	const style = await content.evaluate((element) => {
		const computed = getComputedStyle(element);
		const probe = document.createElement('span');
		probe.style.width = '50ch';
		element.append(probe);
		probe.style.display = 'inline-block';
		const fifty = probe.getBoundingClientRect().width;
		probe.remove();
		return {
			family: computed.fontFamily,
			lineHeight: parseFloat(computed.lineHeight) / parseFloat(computed.fontSize),
			maxWidth: parseFloat(computed.maxWidth),
			fifty
		};
	});
	expect(style.family).toContain('system-ui');
	expect(style.family).not.toContain('Charter');
	expect(style.lineHeight).toBeCloseTo(1.8, 1);
	expect(style.maxWidth).toBeCloseTo(style.fifty, 0);
	expect(await seriousA11yViolations(page)).toEqual([]);

	// So is the tree's: a dot beside the feed, the count still said.
	await page.goto(listUrl);
	await page.getByRole('banner').getByRole('link', { name: 'Back' }).click();
	const bigFeed = feeds(page).getByRole('link', { name: BIG_FEED });
	await expect(bigFeed).toHaveAccessibleName(/, \d+ unread$/);
	await expect(bigFeed.locator('.dot')).toBeVisible();
	await expect(feeds(page).locator('.count')).toHaveCount(0);
	expect(await seriousA11yViolations(page)).toEqual([]);
});
