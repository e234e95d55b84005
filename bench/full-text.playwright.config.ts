// The full-text benchmark (issue 59): `flock /tmp/e2e-run.lock npx playwright test --config
// bench/full-text.playwright.config.ts`, or `npm run bench -- --only fulltext` (bench/run.js runs
// this under its lock). The e2e suite's configuration (its browser, guards and test bed), with
// bench/full-text.bench.ts as its one file and none of its previews: the app measured is the one the
// release archive installs in tt-rss (tests/e2e/support/ttrss-plugin.ts), so no build of `build/`
// runs beside the measurements. Prints `[bench]` rows against budgets; asserts no speed.
import { defineConfig } from '@playwright/test';
import base from '../playwright.config';

export default defineConfig({
	...base,
	testDir: '.',
	testMatch: 'full-text.bench.ts',
	reporter: 'list',
	timeout: 900_000,
	workers: 1,
	webServer: undefined
});
