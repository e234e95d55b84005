// How every browser of this project is launched: Debian's Chromium (Playwright cannot download its
// own browsers on these machines) with the flags that keep it from calling out of the closed network.
// Shared by playwright.config.ts and the benchmark (bench/browser.js), which plain Node runs.
export const chromiumLaunch = Object.freeze({
	executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
	args: Object.freeze([
		'--no-sandbox',
		'--disable-gpu',
		'--disable-quic',
		'--disable-background-networking',
		'--disable-component-update',
		'--disable-sync',
		'--no-first-run'
	])
});
