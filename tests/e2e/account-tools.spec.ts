/**
 * The account tools against the real test bed: OPML export and import, and the server check-up on
 * the sign-in page and in Settings, each condition made real (no-API user, wrong password, update
 * daemon on/off, a feed whose updates fail, and a loopback server of this test answering a proxy's
 * sign-in page, HTTP authentication, or nothing). The old-API-level case is a unit test
 * (src/lib/checkup/checkup.spec.ts): the test bed is API level 15 and cannot be made older.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Page } from '@playwright/test';
import { staticSite } from '../../deploy/static-site.js';
import { freePort } from '../support/free-port';
import { resetTestbed, testbed, testbedCondition } from '../support/testbed';
import { expect, test } from './support/fixtures';
import { feeds, seriousA11yViolations, serverClient, signIn } from './reader-support';

const FEEDS = `http://${testbed.feedsHost}/feeds`;

const condition = testbedCondition;

test.beforeEach(() => {
	resetTestbed();
});

test.afterAll(() => {
	// The daemon and the broken feed must not outlive this file.
	resetTestbed();
});

/** The feeds of an OPML text with their category path, read by the browser's own parser. */
async function opmlFeeds(page: Page, text: string): Promise<Record<string, string[]>> {
	return page.evaluate((xml) => {
		const doc = new DOMParser().parseFromString(xml, 'application/xml');
		if (doc.getElementsByTagName('parsererror').length > 0) throw new Error('not XML');
		const out: Record<string, string[]> = {};
		for (const el of Array.from(doc.querySelectorAll('outline[xmlUrl]'))) {
			const path: string[] = [];
			for (let p = el.parentElement; p && p.localName === 'outline'; p = p.parentElement) {
				path.unshift(p.getAttribute('text') ?? '');
			}
			out[el.getAttribute('xmlUrl') ?? ''] = path;
		}
		return out;
	}, text);
}

async function openSubscriptions(page: Page): Promise<void> {
	await page.getByRole('link', { name: 'Settings' }).click();
	await page.getByRole('link', { name: 'Import and export subscriptions (OPML)' }).click();
	await expect(
		page.getByRole('heading', { level: 1, name: 'Import and export subscriptions' })
	).toBeVisible();
}

test('OPML export downloads every test-bed feed in its category', async ({ page }) => {
	await signIn(page);
	await openSubscriptions(page);
	const [download] = await Promise.all([
		page.waitForEvent('download'),
		page.getByRole('button', { name: 'Export subscriptions' }).click()
	]);
	expect(download.suggestedFilename()).toMatch(/^tt-rss-localhost-\d+-\d{4}-\d\d-\d\d\.opml$/);
	const text = readFileSync(await download.path(), 'utf8');
	expect(text).toContain('<opml version="2.0">');
	expect(await opmlFeeds(page, text)).toEqual({
		[`${FEEDS}/tech-news.xml`]: ['Tech'],
		[`${FEEDS}/web-dev.xml`]: ['Tech', 'Web'],
		[`${FEEDS}/international.xml`]: ['World'],
		[`${FEEDS}/podcast.xml`]: ['World'],
		[`${FEEDS}/hostile.xml`]: [],
		[`${FEEDS}/big.xml`]: [],
		[`${FEEDS}/hostile-corpus.xml`]: []
	});
	// Titles are escaped text: the international feed's title survives whole.
	expect(text).toContain('title="Testbed International — 国際 · دولي · Международный"');
	await expect(page.getByRole('status').filter({ hasText: /Saved tt-rss-/ })).toBeVisible();
});

const IMPORT_FILE = `<?xml version="1.0" encoding="UTF-8"?>
<opml version="2.0"><head><title>From another reader</title></head><body>
	<outline text="Science"><outline type="rss" text="Extra from the file" xmlUrl="${FEEDS}/extra.xml"/></outline>
	<outline text="World"><outline type="rss" text="Podcast again" xmlUrl="${FEEDS}/podcast.xml"/></outline>
	<outline text="Tech"><outline type="rss" text="Gone feed" xmlUrl="${FEEDS}/gone.xml"/></outline>
</body></opml>`;

async function chooseFile(page: Page, text: string, name = 'subscriptions.opml'): Promise<void> {
	await page.getByLabel('OPML file').setInputFiles({
		name,
		mimeType: 'text/x-opml',
		buffer: Buffer.from(text)
	});
}

test('OPML import: preview, a missing category, skipped, unreachable, and resumed after a reload', async ({
	page
}) => {
	await signIn(page);
	await openSubscriptions(page);

	// Files that are not OPML are refused with the reason.
	await chooseFile(page, '<opml><body><outline></body>', 'broken.opml');
	await expect(screenAlert(page)).toContainText('not well-formed XML');
	await chooseFile(page, '<rss version="2.0"><channel/></rss>', 'feed.xml');
	await expect(screenAlert(page)).toContainText('not OPML');

	await chooseFile(page, IMPORT_FILE);
	await expect(
		page.getByText('3 feeds in the file: 2 new, 1 already subscribed (skipped).')
	).toBeVisible();
	const missing = page.getByRole('group', { name: 'Categories this server does not have' });
	await expect(missing).toContainText('Science');
	await missing.getByLabel('Feeds of “Science” go to').selectOption({ label: 'World' });
	await expect(page.getByRole('list', { name: 'Feeds for World' })).toContainText(
		'Extra from the file'
	);
	await expect(page.getByRole('list', { name: 'Feeds for World' })).toContainText(
		'Already subscribed: skipped'
	);
	await expect(page.getByRole('list', { name: 'Feeds for Tech' })).toContainText('Gone feed');

	// The connection drops just as the second feed is sent: the import stops, the first is kept.
	await page.route('**/tt-rss/api/', async (route) => {
		const body = route.request().postData() ?? '';
		if (body.includes('"subscribeToFeed"') && body.includes('gone.xml')) await route.abort();
		else await route.fallback();
	});
	await page.getByRole('button', { name: 'Subscribe to 2 feeds' }).click();
	await expect(screenAlert(page)).toContainText('The import stopped');
	const results = page.getByRole('list', { name: 'Import results' });
	await expect(results.getByRole('listitem').nth(0)).toContainText('Subscribed.');
	await expect(results.getByRole('listitem').nth(2)).toContainText('Waiting.');
	await expect(page.getByText('Import interrupted: 2 of 3 done.')).toBeVisible();

	// A reload continues with the feed not yet sent.
	await page.unroute('**/tt-rss/api/');
	await page.reload();
	await expect(page.getByText('Import finished: 3 feeds handled.')).toBeVisible();
	await expect(results.getByRole('listitem').nth(0)).toContainText('Subscribed.');
	await expect(results.getByRole('listitem').nth(1)).toContainText('Already subscribed: skipped.');
	await expect(results.getByRole('listitem').nth(2)).toContainText(
		'tt-rss could not download that address.'
	);

	// On the server: the new feed once, in the chosen category; nothing for the gone one.
	const client = await serverClient();
	const feeds = await client.getFeeds({ catId: -3 });
	const extra = feeds.filter((f) => f.feedUrl === `${FEEDS}/extra.xml`);
	const categories = await client.getCategories();
	expect(extra).toHaveLength(1);
	expect(categories.find((c) => c.id === extra[0]?.catId)?.title).toBe('World');
	expect(feeds.some((f) => f.feedUrl?.endsWith('/gone.xml'))).toBe(false);
	expect(feeds.filter((f) => f.feedUrl === `${FEEDS}/podcast.xml`)).toHaveLength(1);

	// The finished import can be put away for another file.
	await page.getByRole('button', { name: 'Import another file' }).click();
	await expect(page.getByLabel('OPML file')).toBeVisible();
});

test('OPML import offline says it needs the server and changes nothing', async ({
	page,
	context
}) => {
	await signIn(page);
	await openSubscriptions(page);
	await context.setOffline(true);
	await chooseFile(page, IMPORT_FILE);
	await expect(screenAlert(page)).toContainText(
		'Importing needs a connection to the tt-rss server'
	);
	await expect(page.getByRole('button', { name: /Subscribe to/ })).toHaveCount(0);
	await context.setOffline(false);
	const feeds = await (await serverClient()).getFeeds({ catId: -3 });
	expect(feeds.some((f) => f.feedUrl?.endsWith('/extra.xml'))).toBe(false);
});

/** The screen's own alert (the app bar keeps an empty live region of its own). */
function screenAlert(page: Page) {
	return page.getByRole('alert').filter({ hasText: /\S/ });
}

function finding(page: Page, id: string) {
	return page.locator(`[data-finding="${id}"]`);
}

test('check-up in Settings: old level, daemon stopped then running, a feed that fails', async ({
	page
}) => {
	await signIn(page);
	await page.getByRole('link', { name: 'Settings' }).click();
	await page.getByRole('link', { name: 'Server check-up' }).click();
	await expect(page.getByRole('heading', { level: 1, name: 'Server check-up' })).toBeVisible();
	await expect(finding(page, 'signed-in')).toHaveAttribute('data-verdict', 'ok');
	await expect(finding(page, 'api-level')).toContainText(
		testbed.apiLevel < 23
			? `API level ${testbed.apiLevel}; the newest is 23`
			: 'The server is current (API level 23)'
	);
	await expect(finding(page, 'daemon')).toHaveAttribute('data-verdict', 'problem');
	await expect(finding(page, 'daemon')).toContainText('systemctl enable --now tt-rss');
	await expect(finding(page, 'feed-errors')).toHaveAttribute('data-verdict', 'ok');

	// The feed breaks first: a daemon already running could fetch its old address meanwhile.
	condition('feed-error', 'big.xml');
	condition('daemon', 'on');
	await page.getByRole('button', { name: 'Run the check-up again' }).click();
	await expect(finding(page, 'daemon')).toHaveAttribute('data-verdict', 'ok');
	await expect(finding(page, 'feed-errors')).toHaveAttribute('data-verdict', 'problem');
	await expect(finding(page, 'feed-errors')).toContainText(
		// The server's own words differ by version: "HTTP/1.0 404 File not found" (2021), Guzzle's
		// "Client error: `GET …` resulted in a `404 File not found` response" (current).
		/Testbed Big Feed \(320 items\): The feed’s address no longer exists on its site \(HTTP 404\)\. The server said: .*404 File not found/
	);
	await expect(finding(page, 'feed-errors')).toContainText('Preferences → Feeds');
	condition('daemon', 'off');

	// The same words in the tree (a warning on the row) and in the feed's own menu.
	await page.reload();
	const broken = feeds(page).getByRole('link', {
		name: /^Testbed Big Feed.*fails to update: The feed’s address no longer exists/
	});
	await broken.click();
	await page.locator('summary[aria-label="More feed actions"]').click();
	const health = page.getByTestId('feed-health');
	await expect(health).toContainText(
		'Updates fail: The feed’s address no longer exists on its site (HTTP 404).'
	);
	await expect(health).toContainText('Its newest article is from');
	await expect(health).toContainText(/The server said: “.*404 File not found.*”/);
});

async function failSignIn(page: Page, server: string, user: string, password: string) {
	await page.getByRole('textbox', { name: 'Server address' }).fill(server);
	await page.getByRole('textbox', { name: 'User name' }).fill(user);
	await page.getByLabel('Password', { exact: true }).fill(password);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(page.getByRole('heading', { name: 'Server check-up' })).toBeVisible();
}

test('check-up on the sign-in page: API off, wrong password', async ({ page }) => {
	await page.goto('/login');
	await failSignIn(page, '/tt-rss/', testbed.noApiUser, testbed.noApiPassword);
	await expect(finding(page, 'api-disabled')).toContainText(
		'Preferences → Preferences → General, turn on "Enable API"'
	);
	for (const shot of [
		{ name: 'desktop', viewport: { width: 1440, height: 900 } },
		{ name: 'phone', viewport: { width: 390, height: 844 } }
	]) {
		await page.setViewportSize(shot.viewport);
		await page.emulateMedia({ colorScheme: 'light' });
		expect(await seriousA11yViolations(page), `sign-in check-up, ${shot.name}`).toEqual([]);
		await page.screenshot({
			path: `docs/screenshots/account-sign-in-checkup-${shot.name}.png`,
			fullPage: true
		});
	}
	await failSignIn(page, '/tt-rss/', testbed.user, 'not-the-password');
	await expect(finding(page, 'wrong-password')).toContainText('The user name or password is wrong');
	await expect(finding(page, 'api-disabled')).toHaveCount(0);
});

test.describe('check-up on the sign-in page against a server of the test', () => {
	let server: Server;
	let origin: string;
	// A browser asks the reader for HTTP credentials itself; headless Chromium, given none, waits for
	// ever. Wrong ones stand for a reader who gave wrong ones or cancelled: the 401 reaches the app.
	test.use({ httpCredentials: { username: 'nobody', password: 'wrong' } });

	test.beforeAll(async () => {
		const app = staticSite({ root: () => 'build', base: '' });
		server = createServer((req, res) => {
			const path = req.url ?? '/';
			if (path.startsWith('/proxy/')) {
				// A single sign-on proxy's page, answered for every path behind it.
				res.writeHead(200, { 'Content-Type': 'text/html' });
				res.end(
					'<!doctype html><html><head><title>Sign in</title></head><body><form method="post"><input name="username"><input type="password" name="password"></form></body></html>'
				);
			} else if (path.startsWith('/basic/')) {
				res.writeHead(401, {
					'WWW-Authenticate': 'Basic realm="private area"',
					'Content-Type': 'text/html'
				});
				res.end('<html><body><h1>401 Unauthorized</h1></body></html>');
			} else if (path.startsWith('/silent/')) {
				req.socket.destroy();
			} else if (path.startsWith('/welcome/')) {
				res.writeHead(200, { 'Content-Type': 'text/html' });
				res.end('<!doctype html><html><body><h1>It works!</h1></body></html>');
			} else {
				app(req, res, () => res.writeHead(404).end());
			}
		});
		const port = await freePort();
		await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
		origin = `http://localhost:${port}`;
	});

	test.afterAll(async () => {
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	});

	test('a proxy sign-in page, HTTP authentication, a plain page, nothing at all', async ({
		page
	}) => {
		await page.goto(`${origin}/login`);
		await failSignIn(page, '/proxy/', testbed.user, testbed.password);
		await expect(finding(page, 'sign-in-page')).toContainText('A sign-in page answered');
		await failSignIn(page, '/basic/', testbed.user, testbed.password);
		await expect(finding(page, 'http-auth')).toContainText('"Basic" authentication');
		await expect(finding(page, 'http-auth')).toContainText('exempt the tt-rss API path');
		await failSignIn(page, '/welcome/', testbed.user, testbed.password);
		await expect(finding(page, 'web-page')).toContainText('A web page answered instead of tt-rss');
		await failSignIn(page, '/silent/', testbed.user, testbed.password);
		await expect(finding(page, 'unreachable')).toContainText('The server cannot be reached');
	});
});

test('account tools: axe clean, screenshots on phone and desktop', async ({ page }) => {
	await signIn(page);
	for (const shot of [
		{ name: 'desktop', viewport: { width: 1440, height: 900 } },
		{ name: 'phone', viewport: { width: 390, height: 844 } }
	]) {
		await page.setViewportSize(shot.viewport);
		await page.emulateMedia({ colorScheme: 'light' });
		await page.goto('/settings/subscriptions');
		await chooseFile(page, IMPORT_FILE);
		await expect(page.getByRole('button', { name: 'Subscribe to 2 feeds' })).toBeVisible();
		expect(await seriousA11yViolations(page), `import, ${shot.name}`).toEqual([]);
		await page.getByRole('heading', { name: 'What will be subscribed' }).scrollIntoViewIfNeeded();
		await page.screenshot({
			path: `docs/screenshots/account-import-${shot.name}.png`,
			fullPage: true
		});

		await page.goto('/settings/checkup');
		await expect(finding(page, 'feed-errors')).toBeVisible();
		expect(await seriousA11yViolations(page), `check-up, ${shot.name}`).toEqual([]);
		await page.screenshot({
			path: `docs/screenshots/account-checkup-${shot.name}.png`,
			fullPage: true
		});
	}
});
