import { defineConfig, devices } from '@playwright/test';

// Debian's Chromium: Playwright cannot download its own browsers on these machines.
// The background-networking flags keep Chromium from calling out of the closed network.
export const chromiumLaunch = {
	executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
	args: [
		'--no-sandbox',
		'--disable-gpu',
		'--disable-quic',
		'--disable-background-networking',
		'--disable-component-update',
		'--disable-sync',
		'--no-first-run'
	]
};

const port = 4173;

export default defineConfig({
	testDir: 'tests/e2e',
	// Tests share one real tt-rss server whose database they reset: one worker, files in order.
	workers: 1,
	fullyParallel: false,
	forbidOnly: !!process.env.CI,
	retries: 0,
	timeout: 60_000,
	expect: { timeout: 10_000 },
	reporter: process.env.CI ? [['list']] : [['list']],
	use: {
		baseURL: `http://localhost:${port}`,
		launchOptions: chromiumLaunch,
		trace: 'retain-on-failure',
		screenshot: 'only-on-failure'
	},
	projects: [
		{ name: 'desktop', use: { ...devices['Desktop Chrome'], launchOptions: chromiumLaunch } }
	],
	webServer: {
		command: `npm run build && npx vite preview --port ${port} --strictPort`,
		url: `http://localhost:${port}/`,
		// Always a fresh build: a reused server would test whatever build happened to be running.
		reuseExistingServer: false,
		timeout: 180_000,
		stdout: 'ignore',
		stderr: 'pipe'
	}
});
