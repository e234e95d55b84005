/**
 * "Kept on the server" (issue 60) on the real test bed (TESTBED=current|debian): with the Reader
 * plugin ticked, a phone and a desktop of one reader share the swipe actions and muted words. A
 * change made offline on the phone is queued, sent once when the phone is back, and reaches the
 * desktop at its next sync; two changes of one setting settle as docs/reading.md says (per item,
 * the later change wins, whatever order they reach the server in; the plugin keeps what it
 * replaced). The plugin's PHP files are installed as the release archive lays them out.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { resetTestbed, testbed } from '../support/testbed';
import { cutNetwork, restoreNetwork, outboxCount } from './offline-support';
import { serverClient, signIn } from './reader-support';
import {
	canInstallPlugin,
	PLUGIN_FOLDER,
	pluginsDir,
	setUserPlugins
} from './support/ttrss-plugin';
import { expect, test } from './support/fixtures';

const PLUGIN_ROUTE = '**/tt-rss/public.php**';
const folder = join(pluginsDir, PLUGIN_FOLDER);
let madeDir = false;
let oldPlugins = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(() => {
	test.skip(!canInstallPlugin(), 'needs root and the test bed tt-rss on this machine');
	resetTestbed();
	madeDir = !existsSync(pluginsDir);
	mkdirSync(folder, { recursive: true });
	for (const name of ['init.php', 'shared-settings.php']) {
		copyFileSync(join(import.meta.dirname, '../../package', name), join(folder, name));
	}
	oldPlugins = setUserPlugins(testbed.user, 'reader');
});

test.afterAll(() => {
	if (!canInstallPlugin()) return;
	setUserPlugins(testbed.user, oldPlugins);
	rmSync(madeDir ? pluginsDir : folder, { recursive: true, force: true });
	resetTestbed();
});

/** Offline for the page and its worker, the plugin's method included. */
async function offline(context: BrowserContext): Promise<void> {
	await cutNetwork(context);
	await context.route(PLUGIN_ROUTE, (route) => route.abort('internetdisconnected'));
}

async function online(context: BrowserContext): Promise<void> {
	await context.unroute(PLUGIN_ROUTE);
	await restoreNetwork(context);
}

/** Signs in and waits until Settings says the settings are kept on the server. */
async function device(
	context: BrowserContext,
	viewport: { width: number; height: number }
): Promise<Page> {
	const page = await context.newPage();
	await page.setViewportSize(viewport);
	await signIn(page, { stay: true, worker: true });
	await page.goto('/settings');
	await syncNow(page);
	await expect(page.locator('#settings-kept')).toContainText('kept on your tt-rss server');
	return page;
}

/** The reader's phone (touch, narrow) and desktop, each signed in with a context of its own. */
async function twoDevices(browser: Browser) {
	const phoneContext = await browser.newContext({ hasTouch: true, isMobile: true });
	const desktopContext = await browser.newContext();
	const phone = await device(phoneContext, { width: 390, height: 844 });
	const desktop = await device(desktopContext, { width: 1280, height: 800 });
	return { phone, phoneContext, desktop, desktopContext };
}

async function syncNow(page: Page): Promise<void> {
	await page.getByRole('button', { name: 'Sync now' }).click();
}

function swipeSelect(page: Page, side: 'Swipe left' | 'Swipe right') {
	return page.getByRole('combobox', { name: side });
}

async function serverItems() {
	const client = await serverClient();
	return (await client.sharedSettings()).items;
}

test('a muted word and a swipe setting made offline on the phone reach the desktop once', async ({
	browser
}) => {
	test.setTimeout(240_000);
	const { phone, phoneContext, desktop, desktopContext } = await twoDevices(browser);

	await offline(phoneContext);
	await swipeSelect(phone, 'Swipe left').selectOption('publish');
	await phone.goto('/settings/alerts');
	await phone.getByRole('textbox', { name: /^Muted words/ }).fill('sponsored');
	await phone.getByRole('button', { name: 'Save muted words' }).click();
	await expect(phone.getByText(/Saved: 1 muted word/)).toBeVisible();
	// Queued, one change per setting: swipe.left and mute.words.
	await expect.poll(() => outboxCount(phone)).toBe(2);
	expect(await serverItems()).toEqual({});

	await online(phoneContext);
	await phone.reload();
	await expect.poll(() => outboxCount(phone), { timeout: 30_000 }).toBe(0);
	const items = await serverItems();
	expect(JSON.parse(items['swipe.left']?.value ?? 'null')).toBe('publish');
	expect(JSON.parse(items['mute.words']?.value ?? 'null')).toEqual(['sponsored']);
	expect(items['mute.words']?.replaced).toBeUndefined();

	await desktop.goto('/settings');
	await syncNow(desktop);
	await expect(swipeSelect(desktop, 'Swipe left')).toHaveValue('publish', { timeout: 20_000 });
	await desktop.goto('/settings/alerts');
	await expect(desktop.getByRole('textbox', { name: /^Muted words/ })).toHaveValue('sponsored');
	// Once: the desktop queued nothing back, and the server holds the phone's change as it was.
	expect(await outboxCount(desktop)).toBe(0);
	expect(await serverItems()).toEqual(items);
	await phoneContext.close();
	await desktopContext.close();
});

test('a conflicting edit settles by the later change, and the replaced one is kept', async ({
	browser
}) => {
	test.setTimeout(240_000);
	const { phone, phoneContext, desktop, desktopContext } = await twoDevices(browser);

	// The phone changes "swipe right" offline first; the desktop changes it later, online.
	await offline(phoneContext);
	await swipeSelect(phone, 'Swipe right').selectOption('read');
	await expect.poll(() => outboxCount(phone)).toBe(1);
	await swipeSelect(desktop, 'Swipe right').selectOption('none');
	await expect.poll(async () => (await serverItems())['swipe.right']?.value).toBe('"none"');

	// The phone's earlier change reaches the server last: it does not win.
	await online(phoneContext);
	await phone.reload();
	await expect.poll(() => outboxCount(phone), { timeout: 30_000 }).toBe(0);
	const item = (await serverItems())['swipe.right'];
	expect(item?.value).toBe('"none"');
	expect(item?.replaced?.value).toBe('"read"');
	await syncNow(phone);
	await expect(swipeSelect(phone, 'Swipe right')).toHaveValue('none', { timeout: 20_000 });
	await phoneContext.close();
	await desktopContext.close();
});
