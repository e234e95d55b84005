import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { resetTestbed, testbed } from '../support/testbed';
import {
	canInstallPlugin,
	PLUGIN_FOLDER,
	pluginsDir,
	setUserPlugins
} from './support/ttrss-plugin';
import { listAnswered } from './reader-support';
import { expect, test } from './support/fixtures';

// Issue 56, "turned on in a minute": a reader whose account cannot use the app is refused, is told
// where the plugin's button is, clicks it in tt-rss's Preferences, and then signs in and reads.
// Debian's 2021 tt-rss: user `noapi` ("Enable API" off, login answers API_DISABLED). The current
// one: `nobrowser` (API on, browser-based API access off: API_DISABLED after a good login). Only the
// plugin's init.php is installed (the pane needs nothing else); the app is the suite's own build.
const user = testbed.noBrowserUser ?? testbed.noApiUser;
const password = testbed.noBrowserPassword ?? testbed.noApiPassword;
const pluginFolder = join(pluginsDir, PLUGIN_FOLDER);
let madePluginsDir = false;
let oldPlugins: string | undefined;

test.beforeAll(() => {
	test.skip(!canInstallPlugin(), 'needs root and the test bed tt-rss on this machine');
	test.skip(existsSync(pluginFolder), `${pluginFolder} is in use`);
	resetTestbed();
	madePluginsDir = !existsSync(pluginsDir);
	mkdirSync(pluginFolder, { recursive: true });
	copyFileSync(join(import.meta.dirname, '../../package/init.php'), join(pluginFolder, 'init.php'));
	copyFileSync(
		join(import.meta.dirname, '../../package/shared-settings.php'),
		join(pluginFolder, 'shared-settings.php')
	);
	// What ticking "reader" in Preferences → Plugins writes.
	oldPlugins = setUserPlugins(user, 'reader');
});

test.afterAll(() => {
	if (oldPlugins !== undefined) setUserPlugins(user, oldPlugins);
	rmSync(pluginFolder, { recursive: true, force: true });
	if (madePluginsDir) rmSync(pluginsDir, { recursive: true, force: true });
	// The user's API settings changed: the next file finds the seed.
	resetTestbed();
});

/** The app's sign-in form, filled and sent. */
async function signInToApp(page: Page): Promise<void> {
	await page.goto('/login');
	await page.getByLabel('User name', { exact: true }).fill(user);
	await page.getByLabel('Password', { exact: true }).fill(password);
	await page.getByRole('button', { name: 'Sign in' }).click();
}

/** tt-rss's own web interface, signed in as the user, at Preferences (a context of its own). */
async function ttrssPreferences(browser: Browser): Promise<Page> {
	const page = await (await browser.newContext()).newPage();
	await page.goto(testbed.url);
	await page.locator('input[name="login"]').fill(user);
	await page.locator('input[name="password"]').fill(password);
	await page.getByRole('button', { name: 'Log in' }).click();
	await expect(page.locator('#reader-open')).toBeVisible();
	await page.goto(new URL('prefs.php', testbed.url).href);
	return page;
}

test('refused, then one click in tt-rss’s Preferences, then signed in and reading', async ({
	page,
	browser
}) => {
	test.setTimeout(120_000);
	// Before: refused, and told where the button is.
	await signInToApp(page);
	const refusal = page
		.getByText(/Preferences → Preferences → Reader → "Turn on API access"/)
		.first();
	await expect(refusal).toBeVisible();
	await expect(
		page.locator('nav[aria-label="Feeds"]').getByRole('link', { name: /^All articles/ })
	).toHaveCount(0);

	// The click, in the plugin's pane of tt-rss's Preferences.
	const prefs = await ttrssPreferences(browser);
	await prefs.getByRole('tab', { name: 'Reader', exact: true }).click();
	const pane = prefs.locator('.reader-pane');
	await expect(pane.locator('.reader-access')).toContainText('API access is off for this account');
	await expect(pane).toContainText(
		'Lets Reader for Tiny Tiny RSS and other apps sign in with your password or an app password.'
	);
	const reply = prefs.waitForResponse(
		(r) => r.url().endsWith('backend.php') && r.request().method() === 'POST'
	);
	await pane.getByRole('button', { name: 'Turn on API access' }).click();
	expect(await (await reply).json()).toMatchObject({ on: true });
	await expect(pane.locator('.reader-access')).toHaveText(
		'API access is on for this account: the Reader can sign in.'
	);
	await expect(pane.getByRole('button', { name: 'Turn on API access' })).toBeHidden();
	// tt-rss's own checkbox says so too, so a later "Save configuration" keeps it on.
	expect(
		await prefs.evaluate(
			() =>
				(document.getElementById('CB_ENABLE_API_ACCESS') as HTMLInputElement | null)?.checked ??
				null
		)
	).not.toBe(false);
	// Opened again, the pane says it is on and offers no button.
	await prefs.reload();
	await prefs.getByRole('tab', { name: 'Reader', exact: true }).click();
	await expect(prefs.locator('.reader-pane .reader-access')).toHaveText(
		'API access is on for this account: the Reader can sign in.'
	);
	await expect(prefs.locator('.reader-enable-api')).toHaveCount(0);
	await prefs.context().close();

	// After: the app signs in and shows the list.
	const fresh = await (await browser.newContext()).newPage();
	await signInToApp(fresh);
	const all = fresh.locator('nav[aria-label="Feeds"]').getByRole('link', { name: /^All articles/ });
	await expect(all).toBeVisible();
	await all.click();
	// The server's answer, not a refusal: the list is read (the user has no feeds: it is empty).
	await listAnswered(fresh);
	await expect(fresh.getByRole('heading', { level: 1, name: 'All articles' })).toBeVisible();
	await expect(fresh.getByText('No articles to show here.')).toBeVisible();
	await expect(fresh.getByText(/Turn on API access/)).toHaveCount(0);
	await fresh.context().close();
});
