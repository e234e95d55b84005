/**
 * Undo and the reader's swipes against the real test bed (issue 14): an undone catch-up, mark
 * above or swipe never reaches tt-rss (checked through the API and the requests that went out),
 * one left alone is sent once when its toast goes; offline, Undo leaves nothing queued; every
 * swipe action the reader can choose, by touch on a phone and by mouse on a desktop.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import {
	cutNetwork,
	outboxCount,
	readStore,
	recordApiCalls,
	restoreNetwork,
	serverClient,
	serverHeadlines,
	signIn
} from './offline-support';
import {
	headlineList,
	openFeed,
	rowsTakeSwipes,
	seriousA11yViolations,
	serverHeadline
} from './reader-support';

test.beforeEach(() => {
	resetTestbed();
});

const WEB_DEV = 'Testbed Web Dev (Atom)';
const WEB_DEV_ID = 2;
const TECH_NEWS = 'Testbed Tech News';

function rows(page: Page): Locator {
	return headlineList(page).locator('[data-article-id]');
}

/** The toasts' polite region (Toasts.svelte). */
function notices(page: Page): Locator {
	return page.getByRole('status', { name: 'Notifications' });
}

function undoButton(page: Page): Locator {
	return notices(page).getByRole('button', { name: 'Undo' });
}

async function catchUpAll(page: Page): Promise<void> {
	await page.locator('summary', { hasText: 'Mark read' }).click();
	await page
		.getByRole('group', { name: 'Mark as read' })
		.getByRole('button', { name: 'All articles' })
		.click();
}

const unreadOnServer = async (feedId: number): Promise<number> =>
	(await serverHeadlines(feedId)).filter((h) => h.unread).length;

/** Requests that change read state (a catch-up or an updateArticle of the read flag). */
const readWrites = (calls: { op: string }[]) =>
	calls.filter((c) => c.op === 'catchupFeed' || c.op === 'updateArticle');

test('catch-up, Undo: nothing reaches the server, and after a reload the articles are unread', async ({
	context,
	page
}) => {
	const calls = recordApiCalls(context);
	await signIn(page);
	await openFeed(page, WEB_DEV);
	const unread = await unreadOnServer(WEB_DEV_ID);
	expect(unread).toBe(7);
	await expect(rows(page).and(page.locator('.unread'))).toHaveCount(7);
	await catchUpAll(page);
	await expect(notices(page)).toContainText(`Marked “${WEB_DEV}” as read.`);
	await expect(rows(page).and(page.locator('.unread'))).toHaveCount(0);
	// Held while the toast shows: queued, not sent.
	expect(await outboxCount(page)).toBe(1);
	expect(await seriousA11yViolations(page)).toEqual([]);
	await undoButton(page).click();
	await expect(rows(page).and(page.locator('.unread'))).toHaveCount(7);
	await expect(notices(page)).toContainText('Undone.');
	expect(await outboxCount(page)).toBe(0);

	await page.reload();
	await expect(rows(page).first()).toBeVisible();
	await expect(rows(page).and(page.locator('.unread'))).toHaveCount(7);
	expect(await unreadOnServer(WEB_DEV_ID)).toBe(7);
	expect(readWrites(calls)).toEqual([]);
});

test('catch-up left alone is sent once, when its toast goes', async ({ context, page }) => {
	const calls = recordApiCalls(context);
	await signIn(page);
	await openFeed(page, WEB_DEV);
	await catchUpAll(page);
	await expect(undoButton(page)).toBeVisible();
	expect(readWrites(calls)).toEqual([]);
	await expect(undoButton(page)).toBeHidden();
	await expect.poll(() => outboxCount(page)).toBe(0);
	expect(await unreadOnServer(WEB_DEV_ID)).toBe(0);
	// Sent by the page or, when its Background Sync wins the race, by the worker (whose requests
	// this recorder may not see): at most once from here, never twice.
	expect(readWrites(calls).length).toBeLessThanOrEqual(1);
});

test('mark above, Undo (and z): the rows are unread again and nothing was sent', async ({
	context,
	page
}) => {
	const calls = recordApiCalls(context);
	await signIn(page);
	await openFeed(page, WEB_DEV);
	const titles = await rows(page).locator('.title').allTextContents();
	const title = titles[3] ?? '';
	await headlineList(page)
		.getByRole('button', { name: `More actions for “${title}”` })
		.click();
	await headlineList(page).getByRole('button', { name: 'Mark above read' }).click();
	await expect(notices(page)).toContainText('Marked 3 articles above as read.');
	await expect(rows(page).and(page.locator('.unread'))).toHaveCount(4);
	await undoButton(page).click();
	await expect(rows(page).and(page.locator('.unread'))).toHaveCount(7);

	// Again, undone from the keyboard this time (focus is not in a text field).
	await headlineList(page)
		.getByRole('button', { name: `More actions for “${title}”` })
		.click();
	await headlineList(page).getByRole('button', { name: 'Mark below read' }).click();
	await expect(rows(page).and(page.locator('.unread'))).toHaveCount(4);
	// The rows change first; z undoes once the toast offers it.
	await expect(notices(page)).toContainText('Marked 3 articles below as read.');
	await page.keyboard.press('z');
	await expect(rows(page).and(page.locator('.unread'))).toHaveCount(7);
	expect(await outboxCount(page)).toBe(0);
	expect(await unreadOnServer(WEB_DEV_ID)).toBe(7);
	expect(readWrites(calls)).toEqual([]);
});

test('offline catch-up, Undo: nothing stays queued', async ({ context, page }) => {
	await signIn(page);
	await openFeed(page, WEB_DEV);
	await cutNetwork(context);
	await catchUpAll(page);
	await expect.poll(() => outboxCount(page)).toBe(1);
	await page.keyboard.press('Control+z');
	await expect(rows(page).and(page.locator('.unread'))).toHaveCount(7);
	expect(await outboxCount(page)).toBe(0);
	await restoreNetwork(context);
	expect(await unreadOnServer(WEB_DEV_ID)).toBe(7);
});

// ------------------------------------------------------------------ swipes

/** Presses on the row and moves `dx` sideways; resolves to the release. */
type Swipe = (page: Page, row: Locator, dx: number) => Promise<() => Promise<void>>;

async function middle(row: Locator): Promise<{ x: number; y: number }> {
	await rowsTakeSwipes(row.page());
	// Pointer input lands only inside the viewport: the row may be below the fold.
	await row.scrollIntoViewIfNeeded();
	const box = await row.boundingBox();
	if (!box) throw new Error('row not visible');
	return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** A mouse drag across the row (desktop). */
const mouseSwipe: Swipe = async (page, row, dx) => {
	const { x, y } = await middle(row);
	await page.mouse.move(x, y);
	await page.mouse.down();
	await page.mouse.move(x + dx / 2, y, { steps: 4 });
	await page.mouse.move(x + dx, y, { steps: 4 });
	return () => page.mouse.up();
};

/** A finger across the row: Chrome's own touch events, so touch pointer events and capture. */
const touchSwipe: Swipe = async (page, row, dx) => {
	const { x, y } = await middle(row);
	const cdp = await page.context().newCDPSession(page);
	await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
	for (let i = 1; i <= 8; i++) {
		await cdp.send('Input.dispatchTouchEvent', {
			type: 'touchMove',
			touchPoints: [{ x: x + (dx * i) / 8, y }]
		});
	}
	return async () => {
		await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
		await cdp.detach();
	};
};

/** Sets the swipe actions as Settings stores them, and shows the list again. */
async function chooseSwipes(page: Page, left: string, right: string): Promise<void> {
	await page.evaluate(
		([l, r]) => localStorage.setItem('reader.swipes', JSON.stringify({ left: l, right: r })),
		[left, right] as const
	);
	await page.reload();
	await expect(rows(page).first()).toBeVisible();
}

/** Each action on an article that is unread, unstarred, unpublished and unlabelled (test bed). */
const ACTIONS = [
	{ action: 'read', article: /Tech news 03/, hint: 'Mark read', flag: (h: Flags) => !h.unread },
	{ action: 'star', article: /Tech news 04/, hint: 'Star', flag: (h: Flags) => h.marked },
	{ action: 'publish', article: /Tech news 05/, hint: 'Publish', flag: (h: Flags) => h.published },
	{
		action: 'label:-1026',
		article: /Tech news 06/,
		hint: 'Label “Important”',
		flag: (h: Flags) => h.labels.some((l) => l.id === -1026)
	}
] as const;
type Flags = Awaited<ReturnType<typeof serverHeadline>>;

async function everyAction(page: Page, swipe: Swipe): Promise<void> {
	// Four actions, each waiting out its undo window and its send: ~35 s alone, over the 60 s
	// default on a loaded 2-core machine (it ran 61 s beside a unit-test run).
	test.slow();
	const client = await serverClient();
	await signIn(page);
	await openFeed(page, TECH_NEWS);
	for (const [index, { action, article, hint, flag }] of ACTIONS.entries()) {
		// Alternate sides: each action on the left, then the right.
		const side = index % 2 === 0 ? 'left' : 'right';
		await chooseSwipes(page, side === 'left' ? action : 'none', side === 'right' ? action : 'none');
		// By its title: the list may still be replacing its cached rows with the server's.
		const row = rows(page).filter({ has: page.locator('.title', { hasText: article }) });
		const title = (await row.locator('.title').textContent()) ?? '';
		expect(flag(await serverHeadline(client, title))).toBe(false);
		const dx = side === 'left' ? -150 : 150;
		// While swiping: the action's words, armed past the threshold.
		const release = await swipe(page, row, dx);
		const shown = row.locator('[data-swipe-hint]');
		await expect(shown).toHaveAttribute('data-swipe-hint', hint);
		await expect(shown).toHaveClass(/\barmed\b/);
		await release();
		await expect(undoButton(page)).toBeVisible();
		// The list stays; the change is sent once the toast goes (the items, if it is not).
		await expect(undoButton(page)).toBeHidden();
		await expect
			.poll(async () => JSON.stringify(await readStore(page, 'outbox')), { timeout: 15_000 })
			.toBe('[]');
		expect(flag(await serverHeadline(client, title))).toBe(true);

		// The other side does nothing: no hint, no toast, no change.
		const other = await swipe(page, row, -dx);
		await expect(row.locator('[data-swipe-hint]')).toHaveCount(0);
		await other();
		await expect(undoButton(page)).toBeHidden();
		expect(await outboxCount(page)).toBe(0);
	}
}

test.describe('desktop', () => {
	test('each swipe action, by mouse, with its hint; the other side set to nothing', async ({
		page
	}) => {
		await everyAction(page, mouseSwipe);
	});

	test('a swipe undone is never sent; Settings offers both sides', async ({ context, page }) => {
		const calls = recordApiCalls(context);
		const client = await serverClient();
		await signIn(page);
		await page.goto('/settings');
		const left = page.getByLabel('Swipe left');
		await expect(left).toHaveValue('read');
		await expect(page.getByLabel('Swipe right')).toHaveValue('star');
		await expect(left.locator('option', { hasText: 'Label “Later” on or off' })).toHaveCount(1);
		await left.selectOption({ label: 'Publish or unpublish' });
		expect(await seriousA11yViolations(page)).toEqual([]);
		await page.goto('/');
		await openFeed(page, TECH_NEWS);
		const row = rows(page).filter({ has: page.locator('.title', { hasText: /Tech news 07/ }) });
		const title = (await row.locator('.title').textContent()) ?? '';
		const before = (await serverHeadline(client, title)).published;
		expect(before).toBe(false);
		await (
			await mouseSwipe(page, row, -150)
		)();
		await expect(notices(page)).toContainText(`“${title}” published.`);
		await undoButton(page).click();
		expect(await outboxCount(page)).toBe(0);
		expect((await serverHeadline(client, title)).published).toBe(before);
		expect(calls.filter((c) => c.op === 'updateArticle')).toEqual([]);
	});
});

test.describe('phone', () => {
	test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

	test('each swipe action, by touch, with its hint; the other side set to nothing', async ({
		page
	}) => {
		await everyAction(page, touchSwipe);
	});
});
