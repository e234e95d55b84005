import { execFileSync } from 'node:child_process';
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { sourceDateEpoch } from '../../deploy/build-info.js';
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
import { controllerVersion, INSTALL_MS, waitForController } from './support/pwa';
import {
	buildArchive,
	canInstallPlugin,
	clearPluginData,
	imageKey,
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
/** The name the worker knows an archive's build by (its version.json): release+commit. */
const builtName = (archive: string) =>
	(
		JSON.parse(
			execFileSync('tar', ['-xzOf', archive, `${PLUGIN_FOLDER}/_app/version.json`], {
				encoding: 'utf8'
			})
		) as { version: string }
	).version;
let dir: string;
let archives: { v1: string; v2: string };
let built: { v1: string; v2: string };
let installed: InstalledPlugin | undefined;
let oldPlugins: { reader: string; noapi: string } | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(() => {
	test.skip(!canInstallPlugin(), 'needs root and the test bed tt-rss on this machine');
	test.setTimeout(180_000);
	resetTestbed();
	dir = mkdtempSync(join(tmpdir(), 'plugin-install-'));
	// The second as a release of a later commit: its files carry a later time. (Both are built from
	// one commit, whose time every file carries; Apache's ETag is time and size, so the same-size
	// worker script of the same time could be answered 304 and the update not seen.)
	archives = {
		v1: buildArchive(V1, join(dir, 'v1')),
		v2: buildArchive(V2, join(dir, 'v2'), sourceDateEpoch() + 3600)
	};
	built = { v1: builtName(archives.v1), v2: builtName(archives.v2) };
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
	// The build is named after the release and the commit, never the clock (scripts/package.js).
	expect(built.v1).toMatch(/^0\.0\.1-e2e\.1\+[0-9a-f]{12}(-dirty)?$/);
	const files = sums(join(pluginsDir, PLUGIN_FOLDER));
	for (const name of [
		'index.html',
		'service-worker.js',
		'manifest.webmanifest',
		'init.php',
		'index.php',
		'INSTALL',
		'LICENSE.txt',
		'THIRD-PARTY-NOTICES.txt'
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
		share_target: { action: './' },
		protocol_handlers: [{ protocol: 'web+feed', url: './?to=/subscribe&url=%s' }]
	});
	// The plugin's PHP is not a page: opened directly it shows nothing.
	expect((await request.get(`${pluginAppUrl}init.php`)).status()).toBe(404);
});

/** One API call as the reader (JSON, no browser headers); returns `content`. */
async function api(body: Record<string, unknown>): Promise<unknown> {
	const reply = await fetch(testbed.apiUrl, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body)
	});
	const json = (await reply.json()) as { status: number; content: unknown };
	expect(json.status, JSON.stringify(json.content)).toBe(0);
	return json.content;
}

/** The image sources of the reader's articles, unescaped, with or without the proxy flag. */
async function articleImages(proxy: boolean): Promise<string[]> {
	const { session_id: sid } = (await api({
		op: 'login',
		user: testbed.user,
		password: testbed.password
	})) as { session_id: string };
	const headlines = (await api({
		op: 'getHeadlines',
		sid,
		feed_id: -4,
		show_content: true,
		limit: 200,
		...(proxy ? { reader_image_proxy: true } : {})
	})) as Array<{ content?: string }>;
	await api({ op: 'logout', sid });
	const srcs = new Set<string>();
	for (const { content } of headlines) {
		for (const [, src] of (content ?? '').matchAll(/<img\b[^>]*?\bsrc="([^"]*)"/g)) {
			srcs.add((src ?? '').replace(/&amp;/g, '&'));
		}
	}
	return [...srcs];
}

const PROXY = new URL('public.php?op=pluginhandler&plugin=reader&pmethod=image', testbed.url).href;
const GRADIENT = `http://${testbed.feedsHost}/media/gradient-320x200.png`;

/** The proxy's address for `url`, signed for `uid` with `key` (as init.php signs). */
function signedUrl(url: string, uid: number, key: string): string {
	const sig = createHmac('sha256', key).update(`${uid}\n${url}`).digest('hex');
	return `${PROXY}&${new URLSearchParams({ uid: String(uid), url, sig }).toString()}`;
}

test('the image proxy serves the images of the reader’s articles, and nothing it did not sign', async () => {
	// Without the app's flag the articles are as any API client gets them: nothing rewritten.
	const plain = await articleImages(false);
	expect(plain).toContain(GRADIENT);
	expect(plain.some((src) => src.startsWith(PROXY))).toBe(false);

	// With it, each remote image is a same-origin proxy address signed by the server. An image
	// written into the article (`data:`, as in the hostile corpus) is asked of no host: it stays.
	const proxied = await articleImages(true);
	expect(proxied.filter((src) => !src.startsWith(PROXY) && !src.startsWith('data:'))).toEqual([]);
	const signed = proxied.find((src) => new URL(src).searchParams.get('url') === GRADIENT);
	expect(signed).toBeDefined();
	const original = Buffer.from(await (await fetch(GRADIENT)).arrayBuffer());
	const served = await fetch(signed ?? '');
	expect(served.status).toBe(200);
	expect(served.headers.get('content-type')).toBe('image/png');
	expect(served.headers.get('cache-control')).toMatch(/max-age=\d+/);
	expect(served.headers.get('x-content-type-options')).toBe('nosniff');
	expect(Buffer.from(await served.arrayBuffer()).equals(original)).toBe(true);

	// Not an open proxy: no signature, a changed one, another URL or user under it → 403.
	const good = new URL(signed ?? '');
	const variant = (change: (q: URLSearchParams) => void) => {
		const url = new URL(good);
		change(url.searchParams);
		return url.href;
	};
	const sig = good.searchParams.get('sig') ?? '';
	for (const url of [
		variant((q) => q.delete('sig')),
		variant((q) => q.set('sig', (sig.startsWith('0') ? '1' : '0') + sig.slice(1))),
		variant((q) => q.set('url', `http://${testbed.feedsHost}/media/red-64x48.png`)),
		variant((q) => q.set('uid', String(Number(q.get('uid')) + 1))),
		`${PROXY}&url=${encodeURIComponent(GRADIENT)}`
	]) {
		const refused = await fetch(url);
		expect(refused.status, url).toBe(403);
		expect(refused.headers.get('content-type')).toMatch(/^text\/plain/);
	}

	// Correctly signed but not an image (a feed's XML): refused, never passed on.
	const key = imageKey(testbed.user);
	expect(key?.uid).toBe(Number(good.searchParams.get('uid')));
	const feed = `http://${testbed.feedsHost}/feeds/tech-news.xml`;
	expect((await fetch(feed)).status).toBe(200);
	const notImage = await fetch(signedUrl(feed, key?.uid ?? 0, key?.key ?? ''));
	expect(notImage.status).toBe(415);
	expect(await notImage.text()).not.toContain('<rss');
	// The same signing on the test's side gives the server's own URL: the check above is real.
	expect(signedUrl(GRADIENT, key?.uid ?? 0, key?.key ?? '')).toBe(signed);

	// "Clear data" of the plugin drops the key: every URL signed with it is refused from then on.
	clearPluginData(testbed.user);
	expect((await fetch(signed ?? '')).status).toBe(403);
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
	expect(await controllerVersion(app)).toBe(built.v1);
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
	// The sign-in's sync keeps its images after the text: it is over before the reload.
	await expect(app.getByTestId('sync-running')).toHaveCount(0, { timeout: 30_000 });
	const reloaded = await app.reload();
	expect(reloaded?.fromServiceWorker()).toBe(true);
	await expect(app.getByRole('heading', { level: 1, name: /Tech news 01/ })).toBeVisible();

	// Its image comes through the plugin's signed proxy, from tt-rss's own origin, and the sync
	// kept it as a readable response: its true size, not an opaque one's padded 7 MB.
	const picture = app.locator('.article-content img').first();
	expect((await picture.getAttribute('src'))?.startsWith(`${PROXY}&`)).toBe(true);
	await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
	const trueSize = (await (await fetch(GRADIENT)).arrayBuffer()).byteLength;
	const keptCopy = () =>
		app.evaluate(async (gradient) => {
			const cache = await caches.open('images-v1');
			for (const request of await cache.keys()) {
				if (new URL(request.url).searchParams.get('url') !== gradient) continue;
				const response = await cache.match(request);
				if (response) return { type: response.type, bytes: (await response.blob()).size };
			}
			return undefined;
		}, GRADIENT);
	await expect.poll(keptCopy, { timeout: 30_000 }).toEqual({ type: 'basic', bytes: trueSize });

	// None of the kept images is opaque: each came through the proxy.
	const opaque = await app.evaluate(async () => {
		const cache = await caches.open('images-v1');
		const urls: string[] = [];
		for (const request of await cache.keys()) {
			if ((await cache.match(request))?.type === 'opaque') urls.push(request.url);
		}
		return urls;
	});
	expect(opaque).toEqual([]);

	// The storage page measures every kept image (no "about", no estimate hint), and the browser's
	// own figure has no opaque response's padding in it.
	await app.goto(`${pluginAppUrl}settings/storage`);
	await expect(app.getByTestId('images-count')).toHaveText(/^[1-9]\d*$/);
	const imagesSize = app.locator('dt', { hasText: 'Size of the images' }).locator('xpath=../dd');
	await expect(imagesSize).toHaveText(/^\d/);
	await expect(app.getByText('their size is estimated')).toHaveCount(0);
	const usage = await app.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
	test.info().annotations.push({
		type: 'storage',
		description: `${await app.getByTestId('images-count').textContent()} images, ${await imagesSize.textContent()}; browser usage ${usage} bytes`
	});
	expect(usage).toBeLessThan(7 * 1024 * 1024);

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

	// A setting of the reader's, to be kept across the upgrade (it lives in the browser, not in the
	// folder), as are the cache and the queued change below.
	await app.goto(`${pluginAppUrl}settings`);
	await app.getByRole('radio', { name: 'Sepia' }).check();
	await expect(app.locator('html')).toHaveAttribute('data-theme', 'sepia');
	await openFeed(app, BIG_FEED);

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
	await expect(prompt).toBeVisible({ timeout: INSTALL_MS });
	expect(await outboxCount(app)).toBe(1);
	const load = app.waitForEvent('load');
	await prompt.getByRole('button', { name: 'Reload' }).click();
	await load;
	await waitForController(app);
	expect(await controllerVersion(app)).toBe(built.v2);
	expect(await outboxCount(app)).toBe(1);
	expect(await starredTitles()).not.toContain(second);
	// The settings and the cache came through as well: the theme, and the list drawn from the cache
	// with the API still cut off, the queued star on its row.
	await expect(app.locator('html')).toHaveAttribute('data-theme', 'sepia');
	await expect(starButtons(app).nth(2)).toHaveAttribute('aria-pressed', 'true');
	expect(await starTitle(app, 2)).toBe(second);

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
		expect(await controllerVersion(page)).toBe(built.v1);
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
