/**
 * The storage page against the real test bed: its figures are the database's, "Clear read
 * articles" keeps unread ones readable offline, and the images setting "never" stores no image.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import { STORAGE_POLICY } from '../../src/lib/offline/policy';
import { cutNetwork, openFeed, outboxCount, readStore, signIn } from './offline-support';
import { seriousA11yViolations } from './reader-support';

test.beforeAll(() => {
	resetTestbed();
});

interface Row {
	id: number;
	unread: boolean;
	marked: boolean;
	published: boolean;
	packs?: string[];
	title: string;
}

/**
 * "Sync now" on Settings, until the sync says it is done. A sync that ends without saying so shows
 * why in the sync section's alert, and a failure names it. (CI once saw the line go empty after
 * "Checking for changes…": the tap had met the app's own sync starting and its button, disabled
 * then, asked for nothing; the button is no longer disabled.)
 */
async function syncNow(page: Page): Promise<void> {
	await page.goto('/settings');
	await page.getByRole('button', { name: 'Sync now' }).click();
	const progress = page.getByTestId('sync-progress');
	const alert = page.locator('.sync-settings [role="alert"]');
	// A whole first sync with its packs' images: still "Saving offline packs… (346 saved)" after
	// 10 s in one CI run (two workers on two cores), so it gets the time a sync may take there.
	await expect(progress.filter({ hasText: 'Up to date.' }).or(alert).first()).toBeVisible({
		timeout: 45_000
	});
	const why = (await alert.count()) > 0 ? await alert.innerText() : '';
	expect(why, 'the sync section says why the sync stopped').toBe('');
	await expect(progress).toContainText('Up to date.');
}

async function keptImages(page: Page): Promise<number> {
	return page.evaluate(async () => (await (await caches.open('images-v1')).keys()).length);
}

const isClearedFirst = (a: Row): boolean =>
	!a.unread && !a.marked && !a.published && (a.packs ?? []).length === 0;

test('the storage page shows what is kept; clearing read articles keeps unread ones readable offline', async ({
	context,
	page
}) => {
	// A first sync that may take most of a minute on a loaded machine (syncNow), then the rest.
	test.slow();
	await signIn(page);
	await syncNow(page);
	// Two articles read in the app: read, not starred, in no pack.
	await openFeed(page, 'Testbed Tech News');
	for (const title of [/Tech news 03/, /Tech news 04/]) {
		await page.getByRole('link', { name: title }).first().click();
		await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
		await page.goBack();
	}
	await expect.poll(() => outboxCount(page)).toBe(0);

	await page.goto('/settings');
	await page.getByRole('link', { name: 'What is stored on this device' }).click();
	await expect(
		page.getByRole('heading', { level: 1, name: 'Storage on this device' })
	).toBeVisible();
	const rows = await readStore<Row[]>(page, 'articles');
	const unread = rows.filter((a) => a.unread).length;
	const read = rows.filter(isClearedFirst).length;
	expect(unread).toBeGreaterThan(0);
	expect(read).toBeGreaterThanOrEqual(2);
	await expect(page.getByTestId('articles-total')).toHaveText(String(rows.length));
	await expect(page.getByTestId('articles-unread')).toHaveText(String(unread));
	await expect(page.getByTestId('articles-starred')).toHaveText(
		String(rows.filter((a) => a.marked).length)
	);
	await expect(page.getByTestId('articles-read')).toHaveText(String(read));
	// The default "only on Wi-Fi" downloads where the browser does not tell (headless Chromium).
	const images = await keptImages(page);
	expect(images).toBeGreaterThan(0);
	await expect(page.getByTestId('images-count')).toHaveText(String(images));
	await expect(page.getByTestId('images-setting')).toContainText('Only on Wi-Fi');
	await expect(page.getByTestId('storage-persisted')).not.toBeEmpty();
	expect(await seriousA11yViolations(page), 'storage page').toEqual([]);

	// Clearing asks first; cancelling keeps everything.
	await page.getByRole('button', { name: 'Clear read articles' }).click();
	const dialog = page.getByRole('dialog', { name: 'Clear read articles?' });
	await expect(dialog).toBeVisible();
	expect(await seriousA11yViolations(page), 'confirm dialog').toEqual([]);
	await dialog.getByRole('button', { name: 'Cancel' }).click();
	await expect(dialog).toBeHidden();
	expect((await readStore<Row[]>(page, 'articles')).length).toBe(rows.length);

	await page.getByRole('button', { name: 'Clear read articles' }).click();
	await dialog.getByRole('button', { name: 'Clear', exact: true }).click();
	await expect(page.getByTestId('storage-status')).toContainText(`${read} articles removed`);
	await expect(page.getByTestId('articles-read')).toHaveText('0');
	await expect(page.getByTestId('articles-unread')).toHaveText(String(unread));
	const after = await readStore<Row[]>(page, 'articles');
	expect(after.filter(isClearedFirst)).toEqual([]);
	expect(after.filter((a) => a.unread).length).toBe(unread);
	expect(after.some((a) => /Tech news 03/.test(a.title))).toBe(false);

	// Unread articles stay readable with no network.
	await cutNetwork(context);
	await page.goto('/');
	await openFeed(page, 'Testbed Tech News');
	await page
		.getByRole('link', { name: /Tech news 05/ })
		.first()
		.click();
	await expect(page.getByRole('heading', { level: 1, name: /Tech news 05/ })).toBeVisible();
	await expect(page.locator('article').first()).not.toBeEmpty();
});

test('with images set to "never" the sync stores no image', async ({ page }) => {
	test.slow(); // a whole first sync (syncNow)
	// Set before signing in, so the first sync (it starts by itself) already follows it.
	await page.goto('/login');
	await page.waitForFunction(async () =>
		(await indexedDB.databases()).some((d) => d.name === 'ttrss-reader' && (d.version ?? 0) >= 4)
	);
	await page.evaluate(
		(key) =>
			new Promise<void>((resolve, reject) => {
				const open = indexedDB.open('ttrss-reader');
				open.onsuccess = () => {
					const tx = open.result.transaction('settings', 'readwrite');
					tx.objectStore('settings').put({ images: 'never' }, key);
					tx.oncomplete = () => {
						open.result.close();
						resolve();
					};
					tx.onerror = () => reject(tx.error ?? new Error('write failed'));
				};
				open.onerror = () => reject(open.error ?? new Error('open failed'));
			}),
		STORAGE_POLICY.name
	);
	await signIn(page);
	await syncNow(page);
	await expect(page.getByRole('radio', { name: 'Never' })).toBeChecked();
	expect((await readStore<Row[]>(page, 'articles')).length).toBeGreaterThan(0);
	expect(await keptImages(page)).toBe(0);

	await page.getByRole('link', { name: 'What is stored on this device' }).click();
	await expect(page.getByTestId('images-count')).toHaveText('0');
	await expect(page.getByTestId('images-setting')).toContainText(
		'Never. Images are never downloaded.'
	);
});

test('the storage page on a phone: one column, buttons a finger can hit', async ({ page }) => {
	await page.setViewportSize({ width: 390, height: 844 });
	await signIn(page);
	await page.goto('/settings/storage');
	const clear = page.getByRole('button', { name: 'Clear images' });
	await expect(clear).toBeVisible();
	const box = await clear.boundingBox();
	expect(box?.height).toBeGreaterThanOrEqual(44);
	expect(box?.width).toBeGreaterThan(300);
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
	expect(await seriousA11yViolations(page), 'storage page, phone').toEqual([]);
});
