// Runs the outbox benchmark against the real test bed:
//   flock /tmp/e2e-run.lock npx vitest run --config bench/replay.vitest.config.ts
import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
	plugins: [sveltekit()],
	test: {
		include: ['bench/replay.bench.spec.ts'],
		environment: 'node',
		testTimeout: 120_000
	}
});
