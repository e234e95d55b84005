import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from './support/build';
import { startStaticServer, type StaticServer } from './support/static-server';
import { controllerVersion, INSTALL_MS, waitForController } from './support/pwa';
import { expect, test } from './support/fixtures';

// Two builds of the app under a base path, told apart by APP_VERSION; a static server "deploys" the
// second while the page runs the first.
const BASE = '/reader';
const PORT = 4174;
let dir: string;
let server: StaticServer;

test.beforeAll(() => {
	test.setTimeout(120_000);
	dir = mkdtempSync(join(tmpdir(), 'pwa-update-'));
	buildApp({ outDir: join(dir, 'v1'), base: BASE, version: 'e2e-v1' });
	buildApp({ outDir: join(dir, 'v2'), base: BASE, version: 'e2e-v2' });
});

test.beforeEach(async () => {
	server = await startStaticServer({ root: join(dir, 'v1'), base: BASE, port: PORT });
});

test.afterEach(async () => {
	await server.close();
});

test.afterAll(() => {
	rmSync(dir, { recursive: true, force: true });
});

test('a build for /reader points its assets, manifest and worker at /reader/', async ({ page }) => {
	const html = readFileSync(join(dir, 'v1', 'index.html'), 'utf8');
	const urls = [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1] ?? '');
	expect(urls.length).toBeGreaterThan(3);
	for (const url of urls) expect(url).toMatch(/^\/reader\//);

	await page.goto(server.url);
	await waitForController(page);
	const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
	expect(scope).toBe(`http://localhost:${PORT}/reader/`);
	const manifest = (await (await page.request.get(`${server.url}manifest.webmanifest`)).json()) as {
		start_url: string;
		scope: string;
		share_target: { action: string };
	};
	expect(manifest).toMatchObject({
		start_url: '/reader/',
		scope: '/reader/',
		share_target: { action: '/reader/' }
	});
});

test('a new version waits for the reader, then Reload activates it', async ({ page }) => {
	await page.goto(server.url);
	await waitForController(page);
	expect(await controllerVersion(page)).toBe('e2e-v1');
	const prompt = page.getByRole('status').filter({ hasText: 'New version available' });
	await expect(prompt).toHaveCount(0);

	// Deploy v2; the page's update check finds it.
	server.root = join(dir, 'v2');
	await page.evaluate(async () => {
		await (await navigator.serviceWorker.getRegistration())?.update();
	});

	await expect(prompt).toBeVisible({ timeout: INSTALL_MS });
	// Installed but waiting: the page still runs v1 and v1's worker still answers.
	expect(
		await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())?.waiting)
	).toBe(true);
	expect(await controllerVersion(page)).toBe('e2e-v1');

	const reloaded = page.waitForEvent('load');
	await prompt.getByRole('button', { name: 'Reload' }).click();
	await reloaded;
	await waitForController(page);
	expect(await controllerVersion(page)).toBe('e2e-v2');
	await expect(prompt).toHaveCount(0);

	// v1's files are gone; only v2's precache is left for this scope.
	const caches = await page.evaluate(() => globalThis.caches.keys());
	const precaches = caches.filter((name) => name.includes(`localhost:${PORT}/reader/`));
	expect(precaches).toHaveLength(1);
	expect(precaches[0]).toMatch(/e2e-v2$/);
});
