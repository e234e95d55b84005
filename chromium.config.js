// How every browser of this project is launched: Debian's Chromium (Playwright cannot download its
// own browsers on these machines) with the flags that keep it from calling out of the closed network.
// Shared by playwright.config.ts, the chaos harness and the benchmark (bench/browser.js), which
// plain Node runs.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * testbed/testbed.json, looked for upwards from this file: the chaos harness bundles this module
 * into `.svelte-kit/chaos/`, where `./testbed/` is not beside it.
 */
function testbedJson() {
	for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
		const file = join(dir, 'testbed', 'testbed.json');
		if (existsSync(file)) return file;
		if (dirname(dir) === dir) throw new Error('chromium.config.js: no testbed/testbed.json above');
	}
}

const testbed = JSON.parse(readFileSync(testbedJson(), 'utf8'));

/**
 * The hosts a browser under test may reach: this machine, and the test bed's feed host by each of
 * its names (the real-world-shaped feeds' aliases too).
 */
export const allowedHosts = Object.freeze([
	'localhost',
	'127.0.0.1',
	'[::1]',
	...[testbed.feedsHost, ...String(testbed.feedsAliases ?? '').split(/\s+/)]
		.filter(Boolean)
		.map((host) => host.toLowerCase())
]);

/**
 * A proxy that cannot be reached: its name is in the reserved `.invalid` domain and Chromium's own
 * resolver is told it does not exist, so not even a DNS question leaves the machine for it.
 */
const NOWHERE = 'nowhere.invalid';

/**
 * The network guard, in the browser itself: every request goes to a proxy that does not exist,
 * except those to `allowedHosts`. `<-loopback>` drops Chromium's implicit bypass list (it would let
 * link-local addresses such as 169.254.169.254 go straight out); the loopback names are listed
 * instead. Unlike a `context.route` guard this intercepts nothing: routing turned off the HTTP cache
 * and took every request through the test runner (about a second of CPU per test's start,
 * 2026-12-07). WebRTC may send only through the proxy, so never.
 */
const guardArgs = [
	`--proxy-server=http://${NOWHERE}:9`,
	`--proxy-bypass-list=<-loopback>;${allowedHosts.join(';')}`,
	`--host-resolver-rules=MAP ${NOWHERE} ~NOTFOUND`,
	'--force-webrtc-ip-handling-policy=disable_non_proxied_udp'
];

export const chromiumLaunch = Object.freeze({
	executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
	args: Object.freeze([
		'--no-sandbox',
		'--disable-gpu',
		'--disable-quic',
		'--disable-background-networking',
		'--disable-component-update',
		'--disable-sync',
		'--no-first-run',
		...guardArgs
	])
});
