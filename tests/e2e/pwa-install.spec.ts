import { cspHeaderValue } from '../../deploy/csp.js';
import { chromiumLaunch } from '../../playwright.config';
import { waitForController } from './support/pwa';
import { collectCspViolations, expect, test } from './support/fixtures';

interface Manifest {
	start_url: string;
	scope: string;
	display: string;
	theme_color: string;
	background_color: string;
	icons: { src: string; sizes: string; type: string; purpose: string }[];
	share_target: { action: string; method: string; params: Record<string, string> };
}

test('Chromium reports the app installable, under the production Content-Security-Policy', async ({
	playwright,
	baseURL
}, testInfo) => {
	// Chromium never offers to install from an incognito profile, and every ordinary Playwright
	// context is one: this test needs a persistent profile (the browser's flags guard its network).
	const context = await playwright.chromium.launchPersistentContext(
		testInfo.outputPath('profile'),
		{
			...chromiumLaunch,
			baseURL
		}
	);
	try {
		const violations = await collectCspViolations(context);
		const page = context.pages()[0] ?? (await context.newPage());

		const response = await page.goto('/');
		expect(response?.headers()['content-security-policy']).toBe(cspHeaderValue());
		const html = (await response?.text()) ?? '';
		expect(html, 'no inline script (the strict CSP would block it)').not.toMatch(
			/<script(?![^>]*\bsrc=)[^>]*>/
		);
		await waitForController(page);

		const cdp = await context.newCDPSession(page);
		const { url, errors } = await cdp.send('Page.getAppManifest');
		expect(url).toBe(new URL('/manifest.webmanifest', page.url()).href);
		expect(errors).toEqual([]);
		const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
		expect(installabilityErrors).toEqual([]);
		expect(violations).toEqual([]);
	} finally {
		await context.close();
	}
});

test('the manifest describes the app, its icons and its share target', async ({ page }) => {
	await page.goto('/');
	await expect(page.locator('meta[name="theme-color"][media*="dark"]')).toHaveCount(1);
	const response = await page.request.get('/manifest.webmanifest');
	expect(response.headers()['content-type']).toContain('application/manifest+json');
	const manifest = (await response.json()) as Manifest;
	expect(manifest).toMatchObject({
		start_url: '/',
		scope: '/',
		display: 'standalone',
		share_target: {
			// The folder: every server answers it with the app, and the start sends the shared
			// fields on to the share screen (pwa/address.ts pathFromQuery).
			action: '/',
			method: 'GET',
			params: { title: 'title', text: 'text', url: 'url' }
		}
	});
	for (const purpose of ['any', 'maskable']) {
		for (const size of [192, 512]) {
			const icon = manifest.icons.find(
				(i) => i.purpose === purpose && i.sizes === `${size}x${size}`
			);
			expect(icon, `${purpose} icon ${size}`).toBeDefined();
			const png = await (await page.request.get(icon?.src ?? '')).body();
			// PNG signature, then IHDR width and height.
			expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
			expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size, size]);
		}
	}
});

test('the service worker is a classic script with nothing only a module may use', async ({
	request
}) => {
	// The worker shares modules with the page: a dynamic import there brings Vite's preload helper
	// (import.meta.url) into the worker, whose evaluation then fails (no worker, no offline).
	const script = await (await request.get('/service-worker.js')).text();
	expect(script.length).toBeGreaterThan(1000);
	expect(script).not.toMatch(/import\.meta|\bimport\(/);
});
