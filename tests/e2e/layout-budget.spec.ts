/**
 * The layout budgets of issue 27, measured and printed on a phone (390×844) and a desktop
 * (1280×800): where the first headline row starts, how many rows are fully visible (comfortable
 * and compact density), and where the open article's first line of body text starts. The phone's
 * budgets are asserted: the articles get the screen, not the toolbars.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import { feeds, headlineList, listAnswered, signIn } from './reader-support';

const BIG_FEED = /^Testbed Big Feed/;

test.beforeAll(() => {
	resetTestbed();
});

/** The reader's row density, as Settings stores it (state/settings.svelte.ts), then a reload. */
async function useDensity(page: Page, density: 'compact' | 'comfortable'): Promise<void> {
	await page.evaluate((value) => {
		const key = 'reader.settings';
		const stored = JSON.parse(localStorage.getItem(key) ?? '{}') as Record<string, unknown>;
		localStorage.setItem(key, JSON.stringify({ ...stored, density: value }));
	}, density);
	await page.reload();
	await expect(headlineList(page).locator('[data-article-id]').first()).toBeVisible();
	await listAnswered(page);
}

/** The first row's top edge, and how many rows are wholly inside the list's visible box. */
async function measureList(page: Page): Promise<{ firstTop: number; fullyVisible: number }> {
	return headlineList(page).evaluate((list) => {
		// The scrolling box the rows are clipped by: the nearest ancestor that scrolls.
		let box: Element | null = list;
		while (box && !/(auto|scroll)/.test(getComputedStyle(box).overflowY)) box = box.parentElement;
		const clip = (box ?? list).getBoundingClientRect();
		const bottom = Math.min(clip.bottom, window.innerHeight);
		const rows = [...list.querySelectorAll('[data-article-id]')].map((row) =>
			row.getBoundingClientRect()
		);
		rows.sort((a, b) => a.top - b.top);
		return {
			firstTop: Math.round(rows[0]?.top ?? Infinity),
			fullyVisible: rows.filter((r) => r.top >= clip.top - 0.5 && r.bottom <= bottom + 0.5).length
		};
	});
}

/** The top of the first line of the article's body text (its first non-blank text). */
async function measureBodyTop(page: Page): Promise<number> {
	const body = page.locator('article .body');
	await expect(body).toContainText(/\S/);
	return body.evaluate((element) => {
		const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
		for (let node = walker.nextNode(); node; node = walker.nextNode()) {
			if (!node.textContent?.trim()) continue;
			const range = document.createRange();
			range.selectNodeContents(node);
			const rect = range.getClientRects()[0];
			if (rect) return Math.round(rect.top);
		}
		return Math.round(element.getBoundingClientRect().top);
	});
}

for (const screen of [
	{ name: 'phone', viewport: { width: 390, height: 844 }, touch: true },
	{ name: 'desktop', viewport: { width: 1280, height: 800 }, touch: false }
] as const) {
	test.describe(screen.name, () => {
		test.use({ viewport: screen.viewport, hasTouch: screen.touch, isMobile: screen.touch });

		test('headline list and article within the layout budgets', async ({ page }) => {
			await signIn(page);
			await feeds(page).getByRole('link', { name: BIG_FEED }).click();
			await expect(headlineList(page).locator('[data-article-id]').first()).toBeVisible();

			await useDensity(page, 'comfortable');
			const comfortable = await measureList(page);
			await useDensity(page, 'compact');
			const compact = await measureList(page);
			await useDensity(page, 'comfortable');

			await headlineList(page).getByRole('link').first().click();
			const bodyTop = await measureBodyTop(page);

			console.log(
				`[layout-budget] ${screen.name} ${screen.viewport.width}×${screen.viewport.height}: ` +
					`first row top ${comfortable.firstTop} px; rows fully visible: ` +
					`${comfortable.fullyVisible} comfortable, ${compact.fullyVisible} compact; ` +
					`article body text top ${bodyTop} px`
			);

			if (screen.name === 'phone') {
				expect(comfortable.firstTop).toBeLessThanOrEqual(120);
				expect(comfortable.fullyVisible).toBeGreaterThanOrEqual(7);
				expect(compact.fullyVisible).toBeGreaterThanOrEqual(12);
				expect(bodyTop).toBeLessThanOrEqual(300);
			} else {
				// The desktop shows the list beside the article: no taller head than the phone's.
				expect(comfortable.firstTop).toBeLessThanOrEqual(120);
				expect(comfortable.fullyVisible).toBeGreaterThanOrEqual(7);
			}
		});
	});
}
