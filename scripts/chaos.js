#!/usr/bin/env node
/**
 * `npm run chaos`: builds the app into .svelte-kit/chaos-build (apart from the test suite's build/),
 * bundles tests/chaos/run.ts with rolldown into .svelte-kit/chaos/run.mjs (two folders below the
 * root, where tests/support/testbed.ts finds testbed.json) and runs it: CHAOS_RUNS seeded
 * schedules from CHAOS_SEED (or the CHAOS_SEEDS listed) in CHAOS_ENGINE (chromium, the default;
 * firefox; webkit) against the current tt-rss test bed (tests/chaos/run.ts).
 * It resets the test bed's database: run it under the suite's lock,
 *
 *   CHAOS_RUNS=20 CHAOS_SEED=1 flock /tmp/suite.lock npm run chaos
 *
 * `-- --no-build` reuses the last build. Results append to chaos-results/log.jsonl (CHAOS_LOG).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BUILD_ENV = {
	BUILD_DIR: '.svelte-kit/chaos-build',
	SVELTEKIT_OUT_DIR: '.svelte-kit/chaos-kit'
};

/** @param {string} cmd @param {string[]} argv @param {Record<string, string>} [env] */
function run(cmd, argv, env = {}) {
	const r = spawnSync(cmd, argv, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
	if (r.status !== 0) process.exit(r.status ?? 1);
}

if (!process.argv.includes('--no-build')) run('npx', ['vite', 'build'], BUILD_ENV);
run('npx', [
	'rolldown',
	'tests/chaos/run.ts',
	'--format',
	'esm',
	'--platform',
	'node',
	'--external',
	'@playwright/test',
	'--external',
	'puppeteer-core',
	'--external',
	'selenium-webdriver',
	'-o',
	'.svelte-kit/chaos/run.mjs'
]);
run('node', ['.svelte-kit/chaos/run.mjs'], {
	// The server TESTBED names (a copy of the current tt-rss for runs beside the e2e suite), else
	// the current tt-rss.
	TESTBED: process.env.TESTBED ?? 'current',
	CHAOS_BUILD_DIR: BUILD_ENV.BUILD_DIR
});
