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

/** Scrolls the headline list (its scrolling box) to `top`. */
async function scrollList(page: Page, top: number): Promise<void> {
	await headlineList(page).evaluate((list, to) => {
		let box: Element | null = list;
		while (box && !/(auto|scroll)/.test(getComputedStyle(box).overflowY)) box = box.parentElement;
		box?.scrollTo({ top: to });
	}, top);
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

			// Scrolled down, the phone's list head hides (gestures/collapse.ts): the rows then shown.
			let scrolled = '';
			if (screen.name === 'phone') {
				await scrollList(page, 1000);
				const pane = page.locator('section.list-pane');
				await expect(pane).toHaveClass(/head-collapsed/);
				// Its move ended: the pane is up by the head's whole height.
				await expect
					.poll(() =>
						pane.evaluate(
							(element) =>
								new DOMMatrix(getComputedStyle(element).transform).m42 +
								(element.querySelector('.head') as HTMLElement).offsetHeight
						)
					)
					.toBe(0);
				const collapsed = await measureList(page);
				scrolled = ` (${collapsed.fullyVisible} with the head hidden)`;
				// Back to the top for the article's measure (the same first row as before).
				await scrollList(page, 0);
				await expect(pane).not.toHaveClass(/head-collapsed/);
			}

			await headlineList(page).getByRole('link').first().click();
			const bodyTop = await measureBodyTop(page);

			console.log(
				`[layout-budget] ${screen.name} ${screen.viewport.width}×${screen.viewport.height}: ` +
					`first row top ${comfortable.firstTop} px; rows fully visible: ` +
					`${comfortable.fullyVisible} comfortable${scrolled}, ${compact.fullyVisible} compact; ` +
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
