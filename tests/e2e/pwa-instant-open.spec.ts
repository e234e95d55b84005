import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { waitForController } from './support/pwa';
import { headlineList, signIn } from './reader-support';
import { resetTestbed } from '../support/testbed';

test.beforeAll(() => {
	resetTestbed();
});

/** The path the kept start snapshot is for, or null when there is none. */
function snapshotFor(page: Page): Promise<string | null> {
	return page.evaluate(async () => {
		if (!(await caches.has('start-snapshot'))) return null;
		const kept = await (await caches.open('start-snapshot')).match('/__start-snapshot');
		return kept?.headers.get('x-snapshot-for') ?? null;
	});
}

test('a start paints the last list from the worker before any script runs; sign-out deletes it', async ({
	page
}) => {
	await signIn(page);
	await waitForController(page);
	await page.goto('/feed/-4');
	const rows = headlineList(page).getByRole('link');
	await expect(rows.first()).toBeVisible();
	const title = (
		await page.locator('.headline[data-article-id] .title').first().innerText()
	).trim();
	expect(title.length).toBeGreaterThan(3);

	// Once the screen has settled the app keeps an inert copy of it for the next start.
	await expect.poll(() => snapshotFor(page), { timeout: 15_000 }).toBe('/feed/-4');

	// Rows the list rendered past the fold (its overscan) are not in the copy: a start lays out only
	// what its first frame shows.
	const rendered = await page.locator('.headline[data-article-id]').evaluateAll((els) =>
		els.map((el) => ({
			id: el.getAttribute('data-article-id'),
			below: el.getBoundingClientRect().top >= window.innerHeight
		}))
	);
	const below = rendered.filter((row) => row.below).map((row) => row.id);
	const inView = rendered.filter((row) => !row.below).map((row) => row.id);
	expect(below.length).toBeGreaterThan(0);
	// The copy taken once this screen settled (a sync may have refreshed it since the first one).
	await expect
		.poll(
			() =>
				page.evaluate(async () => {
					const kept = await (await caches.open('start-snapshot')).match('/__start-snapshot');
					return (await kept?.text()) ?? '';
				}),
			{ timeout: 15_000 }
		)
		.toContain(`data-article-id="${inView[inView.length - 1]}"`);

	const response = await page.reload();
	expect(response?.fromServiceWorker()).toBe(true);
	const html = (await response?.text()) ?? '';
	const copy = html.slice(html.indexOf('id="start-snapshot"'), html.indexOf('display: contents'));
	expect(copy).toContain('aria-hidden="true" inert');
	expect(copy).toContain(title.replace(/&/g, '&amp;').replace(/</g, '&lt;'));
	for (const id of inView) expect(copy).toContain(`data-article-id="${id}"`);
	for (const id of below) expect(copy).not.toContain(`data-article-id="${id}"`);
	// Nothing in it runs or loads: the shell's one bootstrap script is the only script.
	expect(copy).not.toMatch(/<script|<img|<iframe|<style|\son[a-z]+=|url\(/i);
	expect(html.match(/<script\b/g)).toHaveLength(1);
	// The app takes over: the copy leaves once the app's own rows are painted, and they work.
	await expect(page.locator('#start-snapshot')).toHaveCount(0);
	await expect(rows.first()).toBeVisible();

	// Another list's start gets the plain shell.
	const other = await page.goto('/feed/-3');
	expect(await other?.text()).not.toContain('id="start-snapshot"');

	// Signing out deletes it: the next start shows nothing of the account.
	await page.getByRole('button', { name: 'Sign out' }).click();
	await expect(page).toHaveURL(/\/login$/);
	expect(await snapshotFor(page)).toBeNull();
	const after = await page.goto('/feed/-4');
	expect(await after?.text()).not.toContain(title.replace(/&/g, '&amp;').replace(/</g, '&lt;'));
});
