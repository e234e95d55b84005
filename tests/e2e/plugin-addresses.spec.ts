import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { resetTestbed, testbed } from '../support/testbed';
import {
	buildArchive,
	canInstallPlugin,
	installArchive,
	PLUGIN_FOLDER,
	pluginAppUrl,
	pluginsDir,
	setUserPlugins,
	type InstalledPlugin
} from './support/ttrss-plugin';
import { expect, test } from './support/fixtures';

// Issue 56, "Every address the app hands out opens anywhere" and "Versions that meet": the
// release archive installed into the test bed's tt-rss (testbed.json: the current tt-rss on its
// own nginx configuration, or Debian's Apache), opened with no service worker at all — a device
// the app was never opened on, site data cleared, Shift+Reload. The server has no single-page
// fallback: only the folder (and its files) is the app; every address the app hands out is the
// folder and a query (src/lib/pwa/address.ts), and so is the address bar while no worker answers.
const VERSION = '1.0.0-e2e.addresses';
let dir: string;
let installed: InstalledPlugin | undefined;
let oldPlugins: string | undefined;

test.describe.configure({ mode: 'serial' });
test.use({ serviceWorkers: 'block' });

test.beforeAll(() => {
	test.skip(!canInstallPlugin(), 'needs root and the test bed tt-rss on this machine');
	test.setTimeout(240_000);
	resetTestbed();
	dir = mkdtempSync(join(tmpdir(), 'plugin-addresses-'));
	installed = installArchive(buildArchive(VERSION, dir));
	oldPlugins = setUserPlugins(testbed.user, 'reader');
});

test.afterAll(() => {
	if (oldPlugins !== undefined) setUserPlugins(testbed.user, oldPlugins);
	installed?.uninstall();
	if (dir) rmSync(dir, { recursive: true, force: true });
	resetTestbed();
});

const folderPath = new URL(pluginAppUrl).pathname;

/** The screen an address of the folder names (`?to=`), or the path itself. */
function screenOf(page: Page): string {
	const url = new URL(page.url());
	expect(url.pathname).toBe(folderPath);
	return url.searchParams.get('to') ?? '/';
}

async function signInAtFolder(page: Page): Promise<void> {
	await page.goto(pluginAppUrl);
	await page.getByLabel('User name', { exact: true }).fill(testbed.user);
	await page.getByLabel('Password', { exact: true }).fill(testbed.password);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page.locator('nav[aria-label="Feeds"]')).toBeVisible();
	expect(await page.evaluate(() => navigator.serviceWorker?.controller ?? null)).toBeNull();
}

test('with no worker, every address the app hands out, and a reload, opens its screen', async ({
	page,
	request
}) => {
	test.setTimeout(120_000);
	// Why: the server answers a deep path of the app with its own 404.
	expect((await request.get(`${pluginAppUrl}feed/-4`)).status()).toBe(404);
	await signInAtFolder(page);

	// The manifest's shortcuts: All articles, from the folder.
	const manifest = (await (await request.get(`${pluginAppUrl}manifest.webmanifest`)).json()) as {
		shortcuts: { url: string }[];
		protocol_handlers: { url: string }[];
		share_target: { action: string };
	};
	expect(manifest.shortcuts.map((s) => s.url)).toContain('./?to=/feed/-4');
	const shortcut = await page.goto(new URL('./?to=/feed/-4', pluginAppUrl).href);
	expect(shortcut?.status()).toBe(200);
	await expect(page.getByRole('list', { name: /^Headlines of/ })).toBeVisible();
	// The address bar keeps the form the server answers.
	expect(screenOf(page)).toBe('/feed/-4');

	// Moving inside the app: each screen's address is the folder's too, so a reload opens it.
	await page
		.locator('nav[aria-label="Feeds"]')
		.getByRole('link', { name: 'Testbed Tech News' })
		.click();
	await page
		.getByRole('list', { name: /^Headlines of/ })
		.getByRole('link', { name: /Tech news 01: Databases update/ })
		.click();
	await expect(page.getByRole('heading', { level: 1, name: /Tech news 01/ })).toBeVisible();
	const article = screenOf(page);
	expect(article).toMatch(/^\/feed\/\d+\/\d+$/);
	const reloaded = await page.reload();
	expect(reloaded?.status()).toBe(200);
	await expect(page.getByRole('heading', { level: 1, name: /Tech news 01/ })).toBeVisible();
	expect(screenOf(page)).toBe(article);
	// Back goes to the list, still an address the server answers.
	await page.goBack();
	await expect(page.getByRole('list', { name: /^Headlines of/ })).toBeVisible();
	expect(screenOf(page)).toMatch(/^\/feed\/\d+$/);

	// A notification's tap (alerts/target.ts): the list, by the folder.
	const [, feedId] = /^\/feed\/(\d+)/.exec(article) ?? [];
	await page.goto(new URL(`./?to=/feed/${feedId}`, pluginAppUrl).href);
	await expect(page.getByRole('list', { name: /^Headlines of/ })).toBeVisible();

	// A web+feed: link (the protocol handler): the subscribe screen with that feed.
	const feed = `http://${testbed.feedsHost}/feeds/podcast.xml?via=addresses`;
	const handler = manifest.protocol_handlers[0]?.url ?? '';
	expect(handler).toBe('./?to=/subscribe&url=%s');
	await page.goto(
		new URL(handler.replace('%s', encodeURIComponent(`web+feed:${feed}`)), pluginAppUrl).href
	);
	await expect(page.getByRole('textbox', { name: 'Feed or site address' })).toHaveValue(feed);
	expect(screenOf(page)).toBe('/subscribe');

	// A share to the installed app: its action is the folder.
	expect(manifest.share_target.action).toBe('./');
	await page.goto(`${pluginAppUrl}?${new URLSearchParams({ title: 'T', url: feed }).toString()}`);
	await expect(
		page.getByRole('heading', { level: 1, name: 'Share a page to Published' })
	).toBeVisible();

	// App and plugin are one release: Settings says nothing of versions.
	await page.goto(new URL('./?to=/settings', pluginAppUrl).href);
	await expect(page.getByRole('heading', { level: 2, name: 'About' })).toBeVisible();
	await page.getByRole('link', { name: 'Server check-up' }).click();
	await expect(page.getByText(`Signed in as ${testbed.user}`)).toBeVisible();
	await expect(page.getByText(/older than (this app|the Reader plugin)/)).toHaveCount(0);
});

test('an app and a plugin of different releases: Settings and the check-up say what to update', async ({
	page
}) => {
	test.setTimeout(120_000);
	const init = join(pluginsDir, PLUGIN_FOLDER, 'init.php');
	const original = readFileSync(init, 'utf8');
	expect(original).toContain(`const VERSION = '${VERSION}';`);
	const withVersion = (version: string) =>
		writeFileSync(
			init,
			original.replace(`const VERSION = '${VERSION}';`, `const VERSION = '${version}';`)
		);
	try {
		await signInAtFolder(page);
		const notice = page.getByTestId('versions-notice');
		// The plugin newer (unpacked, the app not reloaded into it yet): update the app. (PHP may
		// keep the old file compiled for a moment: asked again until it reads the new one.)
		withVersion('9.9.9');
		await expect(async () => {
			await page.goto(new URL('./?to=/settings', pluginAppUrl).href);
			await expect(notice).toContainText('This app is older than the Reader plugin on the server', {
				timeout: 5_000
			});
		}).toPass({ timeout: 30_000 });
		await expect(notice).toContainText(
			`This app is version ${VERSION}; the plugin in tt-rss is version 9.9.9.`
		);
		// The plugin older: update the plugin, in the check-up as well.
		withVersion('0.9.0');
		await expect(async () => {
			await page.goto(new URL('./?to=/settings/checkup', pluginAppUrl).href);
			await expect(
				page.getByText('The Reader plugin on the server is older than this app')
			).toBeVisible({ timeout: 5_000 });
		}).toPass({ timeout: 30_000 });
		await expect(page.getByText(`Unpack the archive of version ${VERSION}`)).toBeVisible();
	} finally {
		writeFileSync(init, original);
	}
});
