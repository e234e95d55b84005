/**
 * Multi-select and bulk actions against the real test bed: Ctrl/Shift-click and the row's box on a
 * desktop, a long press then taps on a phone, `x` and Escape from the keyboard; the selection bar's
 * Star and Mark read change exactly the picked articles on the server (one request each, after the
 * Undo toast's time), the selection outlives the virtual list's scrolling, and the bar is axe clean.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import {
	headlineList,
	listAnswered,
	openFeedTitles,
	seriousA11yViolations,
	serverClient,
	serverHeadline,
	signIn
} from './reader-support';
import { ROW_HEIGHTS } from '../../src/lib/components/row-heights';

test.beforeEach(() => {
	resetTestbed();
});

/** The bulk actions wait in the outbox while their Undo toast shows, then go. */
const SENT = { timeout: 30_000 };

function bar(page: Page) {
	return page.getByRole('group', { name: 'Selected articles' });
}

async function serverFlags(titles: string[]): Promise<{ unread: boolean; marked: boolean }[]> {
	const client = await serverClient();
	return Promise.all(
		titles.map(async (t) => {
			const h = await serverHeadline(client, t);
			return { unread: h.unread, marked: h.marked };
		})
	);
}

function row(page: Page, title: string) {
	return headlineList(page).locator('[data-article-id]', { hasText: title });
}

test.describe('desktop', () => {
	test('Ctrl-click and Shift-click pick a range; Star and Mark read reach the server', async ({
		page
	}) => {
		await signIn(page);
		// International: 7 articles, all unread, one starred (the Japanese one).
		const titles = await openFeedTitles(page, /^Testbed International/);
		expect(titles).toHaveLength(7);
		const before = await serverFlags(titles);

		await row(page, titles[1] ?? '')
			.locator('a.link')
			.click({ modifiers: ['Control'] });
		await expect(bar(page)).toBeVisible();
		await expect(page).not.toHaveURL(/\/feed\/3\/\d+$/);
		await row(page, titles[4] ?? '')
			.locator('a.link')
			.click({ modifiers: ['Shift'] });
		await expect(bar(page).getByRole('status')).toHaveText('4 selected');
		for (const [i, title] of titles.entries()) {
			await expect(
				headlineList(page).getByRole('checkbox', { name: `Select “${title}”` })
			).toBeChecked({ checked: i >= 1 && i <= 4 });
		}
		expect(await seriousA11yViolations(page)).toEqual([]);

		await bar(page).getByRole('button', { name: 'Star', exact: true }).click();
		await expect(bar(page)).toBeHidden();
		await expect(page.getByText('Starred 4 articles.')).toBeVisible();
		const starred = titles.map((_, i) => i >= 1 && i <= 4);
		await expect
			.poll(async () => (await serverFlags(titles)).map((f) => f.marked), SENT)
			.toEqual(starred.map((s, i) => s || (before[i]?.marked ?? false)));

		// The box picks too (and a tap on a picked row's link picks, not opens, while picking).
		await headlineList(page)
			.getByRole('checkbox', { name: `Select “${titles[0]}”` })
			.check();
		await row(page, titles[6] ?? '')
			.locator('a.link')
			.click();
		await expect(bar(page).getByRole('status')).toHaveText('2 selected');
		await bar(page).getByRole('button', { name: 'Mark read' }).click();
		await expect
			.poll(async () => (await serverFlags(titles)).map((f) => f.unread), SENT)
			.toEqual(titles.map((_, i) => i !== 0 && i !== 6));
	});

	test('x picks the focused row, Escape leaves; the selection outlives scrolling', async ({
		page
	}) => {
		await signIn(page);
		const titles = await openFeedTitles(page, /^Testbed Big Feed/);
		const first = titles[0] ?? '';
		await row(page, first).locator('a.link').focus();
		await page.keyboard.press('x');
		await expect(bar(page).getByRole('status')).toHaveText('1 selected');
		await page.keyboard.press('Escape');
		await expect(bar(page)).toBeHidden();

		await page.keyboard.press('x');
		await expect(bar(page).getByRole('status')).toHaveText('1 selected');
		// Far down (its row leaves the DOM) and back: still picked.
		const viewport = headlineList(page).locator('xpath=..');
		await viewport.evaluate((el, row) => (el.scrollTop = row * 60), ROW_HEIGHTS.comfortable);
		await expect(row(page, first)).toHaveCount(0);
		// Scrolled past the first page's end, the list asks for the next: wait for it to come in
		// (scrolling back at once could leave before the list saw its end).
		await expect
			.poll(async () => Number(await headlineList(page).getAttribute('data-count')))
			.toBeGreaterThan(50);
		await viewport.evaluate((el) => (el.scrollTop = 0));
		await expect(
			headlineList(page).getByRole('checkbox', { name: `Select “${first}”` })
		).toBeChecked();
		// "All loaded" means once the pages asked for are in.
		await listAnswered(page);
		const loaded = Number(await headlineList(page).getAttribute('data-count'));
		expect(loaded).toBeGreaterThan(50);
		await bar(page).getByRole('button', { name: 'Select all loaded' }).click();
		await expect(bar(page).getByRole('status')).toHaveText(`${loaded} selected`);
		await bar(page).getByRole('button', { name: 'Cancel' }).click();
		await expect(bar(page)).toBeHidden();
	});
});

test.describe('phone', () => {
	test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

	test('a long press starts picking, taps add rows, Mark read reaches the server', async ({
		page
	}) => {
		await signIn(page);
		await page.goto('/');
		const titles = await openFeedTitles(page, /^Testbed International/);
		const target = row(page, titles[2] ?? '').locator('a.link');
		const box = await target.boundingBox();
		if (!box) throw new Error('row not on screen');
		const cdp = await page.context().newCDPSession(page);
		const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
		await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
		// Held: the bar comes while the finger is still down.
		await expect(bar(page)).toBeVisible();
		await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
		await expect(page).toHaveURL(/\/feed\/3$/);
		await expect(bar(page).getByRole('status')).toHaveText('1 selected');

		// While picking, a tap picks (it does not open the article).
		await row(page, titles[5] ?? '')
			.locator('a.link')
			.tap();
		await expect(bar(page).getByRole('status')).toHaveText('2 selected');
		await expect(page).toHaveURL(/\/feed\/3$/);
		for (const button of await bar(page).getByRole('button').all()) {
			expect((await button.boundingBox())?.height).toBeGreaterThanOrEqual(44);
		}
		expect(await seriousA11yViolations(page)).toEqual([]);

		await bar(page).getByRole('button', { name: 'Mark read' }).tap();
		await expect(bar(page)).toBeHidden();
		await expect
			.poll(async () => (await serverFlags(titles)).map((f) => f.unread), SENT)
			.toEqual(titles.map((_, i) => i !== 2 && i !== 5));
	});
});
