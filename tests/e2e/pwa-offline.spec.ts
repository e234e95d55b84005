import { controllerVersion, goOffline, waitForController } from './support/pwa';
import { expect, test } from './support/fixtures';

test('after the first visit the shell works offline, and tt-rss calls are left to the network', async ({
	page
}) => {
	await page.goto('/');
	await waitForController(page);
	const version = await controllerVersion(page);

	await goOffline(page);

	// Any route of the app renders from the cached shell.
	const response = await page.goto('/some/deep/route?x=1');
	expect(response?.fromServiceWorker()).toBe(true);
	// The update prompt's live region is rendered by the app's root layout: the app booted.
	await expect(page.locator('.update-prompt[role="status"]')).toBeAttached();
	expect(await controllerVersion(page)).toBe(version);

	// The manifest and icons are there too.
	const manifestOk = await page.evaluate(async () => (await fetch('/manifest.webmanifest')).ok);
	expect(manifestOk).toBe(true);

	// The worker does not answer for tt-rss: offline, its requests fail instead of getting the shell.
	const apiResults = await page.evaluate(async () => {
		const attempt = async (input: string, init?: RequestInit) => {
			try {
				const r = await fetch(input, init);
				return `status ${r.status}`;
			} catch {
				return 'network error';
			}
		};
		return [
			await attempt('/tt-rss/api/', { method: 'POST', body: '{"op":"isLoggedIn"}' }),
			await attempt('/tt-rss/index.php')
		];
	});
	expect(apiResults).toEqual(['network error', 'network error']);
});
