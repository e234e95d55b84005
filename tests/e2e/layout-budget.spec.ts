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
/** Some of its articles have an image (a card shows it), the others none. */
const TECH = /^Testbed Tech News/;

/**
 * Each card: its height, whether it shows an image, the height its text and buttons need, and how
 * far from the card's left edge its words start (the unread dot aside).
 */
async function measureCards(
	page: Page
): Promise<
	{ height: number; image: boolean; needed: number; clipped: boolean; textInset: number }[]
> {
	return headlineList(page).evaluate((list) =>
		[...list.querySelectorAll<HTMLElement>('.headline.cards')].map((card) => {
			const row = card.closest('[role="listitem"]') ?? card;
			const content = card.querySelector<HTMLElement>('.content');
			const text = card.querySelector<HTMLElement>('.text');
			const flags = card.querySelector<HTMLElement>('.flags');
			const image = card.querySelector<HTMLImageElement>('img.thumb');
			if (!content || !text || !flags) throw new Error('a card without its parts');
			const style = getComputedStyle(content);
			// Around the content box: the card's margins and border; inside: the text's own box
			// (clamped lines as shown) or the buttons, whichever is taller, and the link's padding.
			const around =
				parseFloat(style.marginTop) +
				parseFloat(style.marginBottom) +
				parseFloat(style.borderTopWidth) +
				parseFloat(style.borderBottomWidth);
			const link = card.querySelector<HTMLElement>('.link');
			const linkStyle = link ? getComputedStyle(link) : undefined;
			const padding = linkStyle
				? parseFloat(linkStyle.paddingTop) + parseFloat(linkStyle.paddingBottom)
				: 0;
			const textNeeded = text.scrollHeight + padding;
			// Where the card's words start, from the card's own left edge (its border box).
			const words = [...text.querySelectorAll<HTMLElement>('.feed, .title, .excerpt')];
			const textLeft = Math.min(...words.map((w) => w.getBoundingClientRect().left));
			return {
				textInset: Math.round(textLeft - content.getBoundingClientRect().left),
				height: Math.round(row.getBoundingClientRect().height),
				image: image !== null,
				needed: Math.round(around + Math.max(textNeeded, flags.scrollHeight)),
				clipped: text.scrollHeight > text.clientHeight + 1
			};
		})
	);
}

test.beforeAll(() => {
	resetTestbed();
});

/** The reader's row density, as Settings stores it (state/settings.svelte.ts), then a reload. */
async function useDensity(page: Page, density: 'compact' | 'comfortable' | 'cards'): Promise<void> {
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
			// Four densities, a selection, the head and an article measured in turn: 52–66 s in
			// CI's two workers on two cores (2026-11-30), where one attempt ran past the 60 s default.
			test.slow();
			await signIn(page);
			// Cards: a card shows its article's image; one without is a text card, as tall as its text.
			await feeds(page).getByRole('link', { name: TECH }).click();
			await expect(headlineList(page).locator('[data-article-id]').first()).toBeVisible();
			await useDensity(page, 'cards');
			const cards = await measureCards(page);
			const withImage = cards.filter((card) => card.image);
			const textCards = cards.filter((card) => !card.image);
			console.log(
				`[layout-budget] ${screen.name} cards: with image ${withImage.map((c) => c.height).join('/')} px; ` +
					`without ${textCards.map((c) => `${c.height} (text needs ${c.needed})`).join(', ')} px`
			);
			// 7 of Tech News's 10 articles have an image tt-rss names (flavor_image), which it sends
			// only with the body: the cards density asks for bodies, so those cards show it.
			expect(withImage.length).toBeGreaterThan(0);
			expect(textCards.length).toBeGreaterThan(0);
			for (const card of withImage) expect(card.height).toBe(280);
			for (const card of textCards) {
				// No empty image box: at most what its text needs (a few px of rounding), far below 280.
				expect(card.height).toBeLessThanOrEqual(card.needed + 4);
				expect(card.height).toBeLessThan(200);
				// And the text is all there (clamped lines aside): nothing cut off at the bottom.
				expect(card.clipped).toBe(false);
			}
			// The text starts at the card's padding: no empty column on the left (issue 27: it began
			// 48 px in, behind a column kept for the selection box).
			console.log(
				`[layout-budget] ${screen.name} cards: text starts ${[...new Set(cards.map((c) => c.textInset))].join('/')} px from the card's left edge`
			);
			for (const card of cards) expect(card.textInset).toBeLessThanOrEqual(16);
			// Picking still works on a card: the box shows, a 44 px target, and the words move past it.
			const firstLink = headlineList(page).locator('.headline.cards a.link').first();
			await firstLink.focus();
			await page.keyboard.press('x');
			await expect(page.getByRole('group', { name: 'Selected articles' })).toContainText(
				'1 selected'
			);
			const firstCard = headlineList(page).locator('.headline.cards').first();
			const pick = await firstCard.locator('label.pick').boundingBox();
			const box = await firstCard.locator('label.pick input').boundingBox();
			const title = await firstCard.locator('.title').boundingBox();
			await expect(firstCard.locator('label.pick input')).toBeChecked();
			expect(pick?.width ?? 0).toBeGreaterThanOrEqual(44);
			expect(pick?.height ?? 0).toBeGreaterThanOrEqual(44);
			expect(title?.x ?? 0).toBeGreaterThan((box?.x ?? 0) + (box?.width ?? 0));
			await page.keyboard.press('Escape');
			await expect(page.getByRole('group', { name: 'Selected articles' })).toHaveCount(0);
			if (screen.name === 'desktop') {
				// A desktop's hover shows the box over a card's corner: on a text card (no image under
				// it) the check hides neither the feed's name nor the title's first letters.
				const textCard = headlineList(page).locator('.headline.text-card').first();
				await textCard.hover();
				const check = textCard.locator('label.pick input');
				await expect(check).toBeVisible();
				await expect(textCard.locator('label.pick')).toHaveCSS('opacity', '1');
				const [c, feed, head] = await Promise.all(
					[check, textCard.locator('.feed'), textCard.locator('.title')].map((l) => l.boundingBox())
				);
				if (!c || !feed || !head) throw new Error('text card not laid out');
				console.log(
					`[layout-budget] desktop text card on hover: check ${Math.round(c.x)}–${Math.round(c.x + c.width)} × ${Math.round(c.y)}–${Math.round(c.y + c.height)}, feed name from ${Math.round(feed.x)}, title from ${Math.round(head.y)}`
				);
				expect(feed.x).toBeGreaterThanOrEqual(c.x + c.width);
				expect(c.y + c.height).toBeLessThanOrEqual(head.y + 2);
			}

			if (screen.name === 'desktop') {
				// The list head's room for a title: a moderate one is not cut (issue 27). It was, by 1 px,
				// beside five 44 px buttons in the 27rem pane; the list's own Refresh went (the app bar's
				// refreshes the list too, as on a phone).
				const heading = page.locator('#list-title');
				await expect(heading).toHaveText(/^Testbed Tech News/);
				const fits = await heading.evaluate((h) => ({
					scroll: h.scrollWidth,
					client: h.clientWidth,
					text: h.textContent
				}));
				console.log(
					`[layout-budget] desktop head: "${fits.text}" ${fits.scroll}/${fits.client} px`
				);
				expect(fits.scroll).toBeLessThanOrEqual(fits.client);
			}

			await useDensity(page, 'comfortable');
			// Back to where the budgets are measured from (a phone's list hides the tree).
			await page.goBack();
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
