// The full-text benchmark (issue 59): `flock /tmp/e2e-run.lock npx playwright test --config
// bench/full-text.playwright.config.ts`. The e2e suite's configuration (its preview of the app and
// test bed), with bench/full-text.bench.ts as its one file. Prints `[bench]` rows against budgets;
// asserts no speed.
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import base from '../playwright.config';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const servers = Array.isArray(base.webServer)
	? base.webServer
	: base.webServer
		? [base.webServer]
		: [];

export default defineConfig({
	...base,
	testDir: '.',
	testMatch: 'full-text.bench.ts',
	reporter: 'list',
	timeout: 900_000,
	workers: 1,
	// The previews run from the repository's root, as the suite's do.
	webServer: servers.map((server) => ({ ...server, cwd: ROOT }))
});
