// The benchmarks of pure code (no test bed, no browser): `npx vitest run --config
// bench/micro.vitest.config.ts`, or `npm run bench -- --only micro`. Each prints `[bench]` lines.
import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
	plugins: [sveltekit()],
	test: {
		include: ['bench/*.micro.spec.ts'],
		environment: 'node',
		testTimeout: 120_000,
		// `gc()` between timed runs: a run pays for its own garbage, not for the set-up's.
		execArgv: ['--expose-gc']
	}
});
