/**
 * The network guard every browser of the suite is launched with (chromium.config.js): a request to
 * any host but this machine and the test bed's feed host goes to a proxy that does not exist, so it
 * fails at once and nothing leaves the machine. Shown by the failure's kind: a request sent straight
 * out would fail otherwise (no route, a time-out) or succeed.
 */
import { expect, test } from './support/fixtures';

const REFUSED = [
	'http://192.0.2.1/', // an address of no one (TEST-NET-1)
	'http://169.254.169.254/latest/meta-data/', // link-local, which Chromium would bypass by itself
	'http://10.213.0.2/', // the feed host by its address, not one of its names
	'http://127.0.0.2/', // loopback, but not an address the suite serves on
	'https://example.com/',
	'http://example.com:8080/'
];

// The page's own policy (connect-src) would refuse these before the network did: off here, so that
// what refuses them is the guard.
test.use({ bypassCSP: true });

test('the browser reaches this machine and nothing else', async ({ page }) => {
	const failures = new Map<string, string>();
	page.on('requestfailed', (request) => {
		failures.set(request.url(), request.failure()?.errorText ?? '');
	});
	await page.goto('/LICENSE.txt');
	const answers = await page.evaluate(async (urls) => {
		const tries = [location.href, ...urls].map(async (url) => {
			try {
				return `${(await fetch(url, { mode: 'no-cors' })).type}`;
			} catch {
				return 'failed';
			}
		});
		return Promise.all(tries);
	}, REFUSED);
	expect(answers).toEqual(['basic', ...REFUSED.map(() => 'failed')]);
	for (const url of REFUSED) {
		expect(failures.get(url), url).toBe('net::ERR_PROXY_CONNECTION_FAILED');
	}
	await expect(page.goto('http://example.com/')).rejects.toThrow(/ERR_PROXY_CONNECTION_FAILED/);
});
