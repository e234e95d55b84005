// The full-text benchmark (issue 59): `flock /tmp/e2e-run.lock npx playwright test --config
// bench/full-text.playwright.config.ts`. The e2e suite's configuration (its preview of the app and
// test bed), with bench/full-text.bench.ts as its one file. Prints `[bench]` rows against budgets;
// asserts no speed.
import base from '../playwright.config';
import { defineConfig } from '@playwright/test';

export default defineConfig({
	...base,
	testDir: '.',
	testMatch: 'full-text.bench.ts',
	timeout: 900_000,
	workers: 1
});
