/**
 * The cross-engine suite (Firefox ESR and WebKitGTK, which Playwright cannot drive here): its own
 * Vitest run, `npx vitest run --config tests/engines/vitest.config.ts`, called by scripts/test.sh
 * after the Playwright stage. See docs/engines.md.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
	root: fileURLToPath(new URL('../../', import.meta.url)),
	// The app's modules the tests read the server with (the API client) import by $lib, as in the app.
	resolve: { alias: { $lib: fileURLToPath(new URL('../../src/lib', import.meta.url)) } },
	test: {
		name: 'engines',
		include: ['tests/engines/**/*.spec.ts'],
		environment: 'node',
		// The one Vitest set-up (the API client's words in English, the source), as in the other projects.
		// Each failed attempt's error as it happens: a test that passes on its retry says why it needed one.
		setupFiles: ['tests/support/vitest-setup.ts', 'tests/engines/support/attempt-errors.ts'],
		globalSetup: ['tests/engines/global-setup.ts'],
		// One real server whose database the files reset, and two browsers per file: never in parallel.
		fileParallelism: false,
		testTimeout: 90_000,
		hookTimeout: 120_000,
		// As Playwright's: one retry on CI, reported as flaky, so a race is seen but not hidden.
		retry: process.env.CI ? 1 : 0
	}
});
