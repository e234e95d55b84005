import { execFileSync } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { metaCspDirectives, cspHeaderValue } from '../../deploy/csp.js';
import { freePort } from '../support/free-port';
import { resetTestbed, testbed } from '../support/testbed';
import {
	BIG_FEED,
	cutNetwork,
	openFeed,
	outboxCount,
	restoreNetwork,
	starButtons,
	starredTitles,
	starTitle
} from './offline-support';
import { controllerVersion, waitForController } from './support/pwa';
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

// Issue 24: the release archive installed into the test bed's tt-rss as a user does it — unpacked
// into plugins.local/, the plugin ticked for the user — with no web-server edit. The server is the
// one testbed.json names (url, pluginsDir), so the same spec runs against any test bed.
const V1 = '0.0.1-e2e.1';
const V2 = '0.0.1-e2e.2';
let dir: string;
let archives: { v1: string; v2: string };
let installed: InstalledPlugin | undefined;
let oldPlugins: { reader: string; noapi: string } | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(() => {
	test.skip(!canInstallPlugin(), 'needs root and the test bed tt-rss on this machine');
	test.setTimeout(180_000);
	resetTestbed();
	dir = mkdtempSync(join(tmpdir(), 'plugin-install-'));
	archives = { v1: buildArchive(V1, join(dir, 'v1')), v2: buildArchive(V2, join(dir, 'v2')) };
	installed = installArchive(archives.v1);
	oldPlugins = {
		reader: setUserPlugins(testbed.user, 'reader'),
		noapi: setUserPlugins(testbed.noApiUser, 'reader')
	};
});

test.afterAll(() => {
	if (oldPlugins) {
		setUserPlugins(testbed.user, oldPlugins.reader);
		setUserPlugins(testbed.noApiUser, oldPlugins.noapi);
	}
	installed?.uninstall();
	if (dir) rmSync(dir, { recursive: true, force: true });
	// It read and starred articles: the next file finds the seed.
	resetTestbed();
});

/** Signs in to tt-rss's own web interface. */
async function signInToTtrss(page: Page, user: string, password: string): Promise<void> {
	await page.goto(testbed.url);
	await page.locator('input[name="login"]').fill(user);
	await page.locator('input[name="password"]').fill(password);
	await page.getByRole('button', { name: 'Log in' }).click();
}

test('the archive holds the app and the plugin, and the folder needs no server configuration', async ({
	request
}) => {
	// Both archives and their checksums; inside, every file of the folder checks out.
	const sums = (cwd: string) =>
		execFileSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd, encoding: 'utf8' });
	expect(sums(join(dir, 'v1'))).toBe(`ttrss-reader-${V1}.tar.gz: OK\nttrss-reader-${V1}.zip: OK\n`);
	const files = sums(join(pluginsDir, PLUGIN_FOLDER));
	for (const name of [
		'index.html',
		'service-worker.js',
		'manifest.webmanifest',
		'init.php',
		'index.php',
		'INSTALL'
	]) {
		expect(files).toContain(`${name}: OK`);
	}
	expect(files).not.toContain('FAILED');

	// A stock server, no configuration of ours: the policy comes with the document.
	const shell = await request.get(pluginAppUrl);
	expect(shell.status()).toBe(200);
	const html = await shell.text();
	expect(html).toContain(
		`<meta http-equiv="Content-Security-Policy" content="${cspHeaderValue(metaCspDirectives)}" />`
	);
	for (const [, url] of html.matchAll(/(?:href|src)="([^"]+)"/g)) expect(url).toMatch(/^\.\//);
	const manifest = await request.get(`${pluginAppUrl}manifest.webmanifest`);
	expect(await manifest.json()).toMatchObject({
		start_url: './',
		scope: './',
		share_target: { action: './share' }
	});
	// The plugin's PHP is not a page: opened directly it shows nothing.
	expect((await request.get(`${pluginAppUrl}init.php`)).status()).toBe(404);
});

test('opened from tt-rss: signs in, reads, replays an offline change, then upgrades keeping a queued one', async ({
	page,
	context
}) => {
	test.setTimeout(120_000);
	await signInToTtrss(page, testbed.user, testbed.password);
	const entry = page.getByRole('link', { name: /^Open in Reader/ });
	await expect(entry).toBeVisible();
	// API access is on for this user: no warning in the entry.
	await expect(entry).toHaveText('Open in Reader');

	expect(await entry.evaluate((a) => (a as HTMLAnchorElement).href)).toBe(pluginAppUrl);
	const [app] = await Promise.all([context.waitForEvent('page'), entry.click()]);
	await app.waitForLoadState();
	// The app's start, not yet signed in, moves on to its sign-in screen inside the folder.
	expect(app.url().startsWith(pluginAppUrl)).toBe(true);

	// The app finds tt-rss above its plugins.local folder by itself.
	await expect(app.getByLabel('Server address')).toHaveValue(new URL(testbed.url).pathname);
	await app.getByLabel('User name', { exact: true }).fill(testbed.user);
	await app.getByLabel('Password', { exact: true }).fill(testbed.password);
	await app.getByLabel('Stay signed in').setChecked(true);
	await app.getByRole('button', { name: 'Sign in' }).click();
	await expect(app.locator('nav[aria-label="Feeds"]')).toBeVisible();
	await waitForController(app);
	expect(await controllerVersion(app)).toBe(V1);
	expect(await app.evaluate(async () => (await navigator.serviceWorker.ready).scope)).toBe(
		pluginAppUrl
	);

	// Reading an article; its address is a deep path the server itself does not have, so a reload
	// there is answered by the worker.
	await app
		.locator('nav[aria-label="Feeds"]')
		.getByRole('link', { name: 'Testbed Tech News' })
		.click();
	await app
		.getByRole('list', { name: /^Headlines of/ })
		.getByRole('link', { name: /Tech news 01: Databases update/ })
		.click();
	await expect(app.getByRole('heading', { level: 1, name: /Tech news 01/ })).toBeVisible();
	await expect(app.locator('.article-content')).toContainText('Tech news item 1.');
	expect(app.url().startsWith(pluginAppUrl)).toBe(true);
	const reloaded = await app.reload();
	expect(reloaded?.fromServiceWorker()).toBe(true);
	await expect(app.getByRole('heading', { level: 1, name: /Tech news 01/ })).toBeVisible();

	// An offline change, replayed once back online.
	// (Row 0 is seeded starred; rows 1 and 2 are not.)
	await openFeed(app, BIG_FEED);
	const before = await starredTitles();
	const [first, second] = [await starTitle(app, 1), await starTitle(app, 2)];
	expect(before.has(first) || before.has(second)).toBe(false);
	await cutNetwork(context);
	await starButtons(app).nth(1).click();
	await expect.poll(() => outboxCount(app)).toBe(1);
	await restoreNetwork(context);
	await expect.poll(() => starredTitles(), { timeout: 20_000 }).toContain(first);
	await expect.poll(() => outboxCount(app)).toBe(0);

	// A change queued while the API is out of reach, then the next archive unpacked over the folder.
	await cutNetwork(context);
	await starButtons(app).nth(2).click();
	await expect.poll(() => outboxCount(app)).toBe(1);
	installed?.upgrade(archives.v2);
	// The app's files are reachable again; the API still is not, so the change stays queued.
	await context.setOffline(false);
	await app.evaluate(async () => {
		await (await navigator.serviceWorker.getRegistration())?.update();
	});
	const prompt = app.getByRole('status').filter({ hasText: 'New version available' });
	await expect(prompt).toBeVisible();
	expect(await outboxCount(app)).toBe(1);
	const load = app.waitForEvent('load');
	await prompt.getByRole('button', { name: 'Reload' }).click();
	await load;
	await waitForController(app);
	expect(await controllerVersion(app)).toBe(V2);
	expect(await outboxCount(app)).toBe(1);
	expect(await starredTitles()).not.toContain(second);

	// Back online: the change kept across the upgrade is sent.
	await context.setOffline(true);
	await restoreNetwork(context);
	await expect.poll(() => starredTitles(), { timeout: 20_000 }).toContain(second);
	await expect.poll(() => outboxCount(app)).toBe(0);
});

test('the entry says when the account has API access off, and names the setting', async ({
	page
}) => {
	await signInToTtrss(page, testbed.noApiUser, testbed.noApiPassword);
	const entry = page.getByRole('link', { name: /^Open in Reader/ });
	await expect(entry).toContainText('API access off');
	await expect(entry).toHaveAttribute('title', /“Enable API”/);
});

test('unpacked into any folder of a plain server (php -S), outside tt-rss’s tree', async ({
	page
}) => {
	const root = join(dir, 'php-root');
	const folder = join(root, 'some', 'where');
	mkdirSync(folder, { recursive: true });
	execFileSync('tar', ['-xzf', archives.v1, '-C', folder]);
	const port = await freePort();
	const php = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', root], { stdio: 'ignore' });
	try {
		const appUrl = `http://127.0.0.1:${port}/some/where/reader/`;
		await expect
			.poll(async () => (await fetch(appUrl).catch(() => undefined))?.status, { timeout: 10_000 })
			.toBe(200);
		// php -S, like tt-rss's nginx image (`index index.php`), answers the folder with index.php,
		// which sends the page with the whole policy as a header, frame-ancestors included.
		const folder = await fetch(appUrl);
		expect(folder.headers.get('content-security-policy')).toBe(cspHeaderValue());
		expect(await folder.text()).toContain('<meta http-equiv="Content-Security-Policy"');
		await page.goto(appUrl);
		// Not inside tt-rss's tree: the form offers the proxied path, as a build for a base path does.
		await expect(page.getByLabel('Server address')).toHaveValue('/tt-rss/');
		await waitForController(page);
		expect(await controllerVersion(page)).toBe(V1);
		expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).scope)).toBe(
			appUrl
		);
		// The manifest, relative to its folder, parses cleanly; its id is the folder.
		const cdp = await page.context().newCDPSession(page);
		const { url, errors } = await cdp.send('Page.getAppManifest');
		expect(url).toBe(`${appUrl}manifest.webmanifest`);
		expect(errors).toEqual([]);
		expect((await cdp.send('Page.getAppId')).appId).toBe(appUrl);

		// A deep address the server does not have: the worker answers it with the shell, whose
		// files are named from the folder, so the app renders there.
		const deep = await page.goto(`${appUrl}settings`);
		expect(deep?.fromServiceWorker()).toBe(true);
		await expect(page.getByLabel('Server address')).toHaveValue('/tt-rss/');
		expect(new URL(page.url()).pathname).toBe('/some/where/reader/login');
	} finally {
		php.kill();
	}
});
