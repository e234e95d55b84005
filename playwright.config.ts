import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunch as launch } from './chromium.config.js';
import { freePort } from './tests/support/free-port';
import { testbed } from './tests/support/testbed';

// Debian's Chromium and its flags: chromium.config.js (shared with the benchmark).
export const chromiumLaunch = { executablePath: launch.executablePath, args: [...launch.args] };

// Chosen once by the runner; its worker processes inherit the variable and so agree on the port.
process.env.E2E_PORT ??= String(await freePort());
const port = Number(process.env.E2E_PORT);

export default defineConfig({
	testDir: 'tests/e2e',
	// Tests share one real tt-rss server whose database they reset: one worker, files in order.
	workers: 1,
	fullyParallel: false,
	forbidOnly: !!process.env.CI,
	// One retry on CI, reported as "flaky" in the output: a race in a test must be seen and fixed,
	// but must not hide the rest of the run.
	retries: process.env.CI ? 1 : 0,
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
		// The preview's /tt-rss/ proxy (vite.config.ts) goes to the server under test (TESTBED).
		env: { TTRSS_URL: testbed.url },
		url: `http://localhost:${port}/`,
		// Always a fresh build: a reused server would test whatever build happened to be running.
		reuseExistingServer: false,
		timeout: 180_000,
		stdout: 'ignore',
		stderr: 'pipe'
	}
});
