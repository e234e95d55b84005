/**
 * Helpers for the reader specs: sign in through the UI, and read the server's own state through
 * the app's API module over Node's fetch, so every test checks what tt-rss really stored.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { type Headline } from '../../src/lib/api/index';
import { TtrssClient } from '../../src/lib/api/client';
import { testbed } from '../support/testbed';
import { signInWithForm } from '../support/sign-in';
import { playwrightPage } from '../support/playwright-page';
import { listAnsweredIn, namePattern, openFeedIn } from '../support/open-feed';
import { expect } from './support/fixtures';

export async function serverClient(): Promise<TtrssClient> {
	const client = new TtrssClient({ apiUrl: testbed.apiUrl });
	await client.login({ user: testbed.user, password: testbed.password });
	return client;
}

/** Every headline with this exact title, as the server has it now (all feeds, read or not). */
export async function serverHeadlines(client: TtrssClient, title: string): Promise<Headline[]> {
	const found: Headline[] = [];
	for (let skip = 0; skip < 1000; skip += 200) {
		const { headlines } = await client.getHeadlines({
			feedId: -4,
			viewMode: 'all_articles',
			limit: 200,
			skip
		});
		found.push(...headlines.filter((h) => h.title === title));
		if (headlines.length < 200) break;
	}
	return found;
}

/** The headline with this exact title, as the server has it now (all feeds, read or not). */
export async function serverHeadline(client: TtrssClient, title: string): Promise<Headline> {
	const [hit] = await serverHeadlines(client, title);
	if (!hit) throw new Error(`no article titled ${title}`);
	return hit;
}

export { serverUnread } from '../support/server';

/** The server's unread flag of each title, in order. */
export async function serverUnreadOf(titles: string[]): Promise<boolean[]> {
	const client = await serverClient();
	return Promise.all(titles.map(async (t) => (await serverHeadline(client, t)).unread));
}

/**
 * Signs in to the test bed through the form, by the routine every harness shares
 * (tests/support/sign-in.ts), "Stay signed in" as given or as the form has it, and waits for the
 * tree's first feed (and, with `worker`, for a service worker to control the page).
 */
export async function signIn(
	page: Page,
	options: { stay?: boolean; worker?: boolean } = {}
): Promise<void> {
	await signInWithForm(playwrightPage(page), '/login', {
		staySignedIn: options.stay,
		waitForWorker: options.worker ?? false
	});
}

export function feeds(page: Page) {
	return page.locator('nav[aria-label="Feeds"]');
}

export function headlineList(page: Page) {
	return page.getByRole('list', { name: /^Headlines of/ });
}

/**
 * Waits until the open list shows the server's answer: it shows the cached rows first, which may
 * be fewer or in another order (tt-rss orders equal dates arbitrarily), and says `aria-busy` until
 * the server answered.
 */
export async function listAnswered(page: Page): Promise<void> {
	await listAnsweredIn(playwrightPage(page));
}

/**
 * Opens a feed from the tree and waits for its rows (and for `firstRow` among them, when given):
 * the one way every harness opens a list (tests/support/open-feed.ts). A plain name matches as a
 * part of the feed link's name, as Playwright's `getByRole` does.
 */
export async function openFeed(
	page: Page,
	name: string | RegExp,
	firstRow?: string | RegExp
): Promise<void> {
	await openFeedIn(playwrightPage(page), namePattern(name));
	if (firstRow !== undefined)
		await expect(headlineList(page).getByRole('link', { name: firstRow })).toBeVisible();
}

/** Opens a feed and returns its rows' titles in list order, as the server answered them. */
export async function openFeedTitles(page: Page, name: RegExp): Promise<string[]> {
	await openFeed(page, name);
	await listAnswered(page);
	return headlineList(page).locator('[data-article-id] .title').allTextContents();
}

/** A row link of the headline list by (part of) its title. */
export function headlineLink(page: Page, title: string | RegExp) {
	return headlineList(page).getByRole('link', { name: title });
}

/**
 * Waits until the list's rows take swipes: their code loads after the first screen, and a press
 * before that is a click (it opens the article).
 */
export async function rowsTakeSwipes(page: Page): Promise<void> {
	await expect(headlineList(page).locator('[data-swipe-ready]').first()).toBeAttached();
}

const require = createRequire(import.meta.url);

/** The WCAG 2.2 level AA rules of axe-core (2.0, 2.1 and 2.2, levels A and AA). */
export const WCAG22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Runs axe-core in the page with these rule tags and returns its violations. axe-core is injected
 * with page.evaluate (not a script tag), so the app's strict CSP stays as it is; once per document.
 */
export async function a11yViolations(
	page: Page,
	tags: string[] = WCAG22_AA
): Promise<{ id: string; impact: string | null; nodes: string[] }[]> {
	if (!(await page.evaluate(() => 'axe' in window))) {
		await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
	}
	return page.evaluate(async (values) => {
		const axe = (
			window as unknown as {
				axe: {
					run: (
						ctx: Document,
						opts: object
					) => Promise<{
						violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[];
					}>;
				};
			}
		).axe;
		const r = await axe.run(document, { runOnly: { type: 'tag', values } });
		return r.violations.map((v) => ({
			id: v.id,
			impact: v.impact ?? null,
			nodes: v.nodes.map((n) => n.target.join(' '))
		}));
	}, tags);
}

/**
 * The serious and critical violations of the WCAG 2.1 AA rules and axe's best practices (the
 * screens gallery, screens-gallery.spec.ts, checks every screen against all of 2.2 AA).
 */
export async function seriousA11yViolations(
	page: Page
): Promise<{ id: string; nodes: string[] }[]> {
	const results = await a11yViolations(page, [
		...WCAG22_AA.filter((t) => t !== 'wcag22aa'),
		'best-practice'
	]);
	return results
		.filter((v) => v.impact === 'serious' || v.impact === 'critical')
		.map(({ id, nodes }) => ({ id, nodes }));
}

/** Opens the list's "Show and order" menu (its Show and Sort choices), if it is not open. */
export async function openViewMenu(page: Page): Promise<void> {
	const show = page.getByRole('combobox', { name: 'Show' });
	if (!(await show.isVisible()))
		await page.locator('summary', { hasText: 'Show and order' }).click();
	await expect(show).toBeVisible();
}

/** Opens the list's search field in place (its icon button), if it is not open. */
export async function openSearch(page: Page): Promise<void> {
	const field = page.getByRole('searchbox', { name: 'Search headlines' });
	if (!(await field.isVisible())) await page.getByRole('button', { name: 'Open search' }).click();
	await expect(field).toBeVisible();
}
