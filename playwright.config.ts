import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunch as launch } from './chromium.config.js';
import { freePort } from './tests/support/free-port';
import { testbed, testbedFor, type TestbedServer } from './tests/support/testbed';

// Debian's Chromium and its flags: chromium.config.js (shared with the benchmark).
export const chromiumLaunch = { executablePath: launch.executablePath, args: [...launch.args] };

// The tests reset their server's database, so a worker needs a server of its own. The current
// tt-rss has a copy in the test bed (`current2`, testbed/testbed.json): against it the suite runs
// in two workers, each with its server and its own preview of the app (the preview's /tt-rss/ proxy
// goes to that server). Debian's server has no copy: one worker. E2E_WORKERS=1 runs one worker on
// the current server (a machine whose test bed predates the copy). Chosen by the runner: a
// worker's `testbed` is already its own server.
process.env.E2E_WORKER_SERVERS ??= (
	testbed.server === 'current' && process.env.E2E_WORKERS !== '1'
		? ['current', 'current2']
		: [testbed.server]
).join(',');
const servers = process.env.E2E_WORKER_SERVERS.split(',') as TestbedServer[];

// Chosen once by the runner; its worker processes inherit the variables and so agree on the ports.
// A worker's own server and preview: Playwright's TEST_PARALLEL_INDEX (unset in the runner).
process.env.E2E_PORTS ??= (await distinctFreePorts(servers.length)).join(',');
const ports = process.env.E2E_PORTS.split(',').map(Number);
const port = ports[Number(process.env.TEST_PARALLEL_INDEX ?? 0)] ?? ports[0];

async function distinctFreePorts(count: number): Promise<number[]> {
	const found = new Set<number>();
	while (found.size < count) found.add(await freePort());
	return [...found];
}

export default defineConfig({
	testDir: 'tests/e2e',
	// One worker per server (above): each runs whole files, in order, on its own server.
	workers: servers.length,
	fullyParallel: false,
	forbidOnly: !!process.env.CI,
	// One retry on CI, reported as "flaky" in the output: a race in a test must be seen and fixed,
	// but must not hide the rest of the run.
	retries: process.env.CI ? 1 : 0,
	timeout: 60_000,
	expect: { timeout: 10_000 },
	// A failed attempt's page snapshot and what its pages did are printed too (a retry that then
	// passes included): tests/support/failure-reporter.ts.
	reporter: [['list'], ['./tests/support/failure-reporter.ts']],
	use: {
		baseURL: `http://localhost:${port}`,
		launchOptions: chromiumLaunch,
		// A trace records every action's page and a screencast: reader-flow, about and reader-undo took
		// 98.6 s of CPU with it and 69.3 s without (2026-12-07, one worker, a busy machine). On CI a
		// test is traced on its retry only, so a test that fails twice leaves its trace and a pass
		// costs none; a failure's story is told by the evidence the fixtures print anyway. E2E_TRACE
		// chooses another mode (e.g. `on`, or `retain-on-failure`, the default outside CI).
		trace:
			(process.env.E2E_TRACE as
				'on' | 'off' | 'retain-on-failure' | 'on-first-retry' | undefined) ??
			(process.env.CI ? 'on-first-retry' : 'retain-on-failure'),
		screenshot: 'only-on-failure'
	},
	projects: [
		{ name: 'desktop', use: { ...devices['Desktop Chrome'], launchOptions: chromiumLaunch } }
	],
	// The first preview builds the app; the others serve that build (Playwright starts them one after
	// the other, each once the previous one answers). E2E_BUILT=1: `build/` is this tree's build
	// already (scripts/test.sh's Debian subset, right after the stage that built it).
	webServer: servers.map((server, index) => ({
		command: `${index === 0 && process.env.E2E_BUILT !== '1' ? 'npm run build && ' : ''}npx vite preview --port ${ports[index]} --strictPort`,
		// The preview's /tt-rss/ proxy (vite.config.ts) goes to that worker's server.
		env: { TTRSS_URL: testbedFor(server).url },
		url: `http://localhost:${ports[index]}/`,
		// Always a fresh build: a reused server would test whatever build happened to be running.
		reuseExistingServer: false,
		timeout: 180_000,
		stdout: 'ignore' as const,
		stderr: 'pipe' as const
	}))
});
