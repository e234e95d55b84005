import { sveltekit } from '@sveltejs/kit/vite';
import type { ProxyOptions } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * tt-rss sends no CORS headers, so the app must reach it on its own origin.
 * In development and preview, `/tt-rss/` is forwarded to the server named by TTRSS_URL
 * (default: the local test bed). In production a web server does the same (see docs/deploy.md).
 */
function ttrssProxy(): Record<string, ProxyOptions> {
	const target = new URL(process.env.TTRSS_URL ?? 'http://localhost/tt-rss/');
	const targetPath = target.pathname.endsWith('/') ? target.pathname : `${target.pathname}/`;
	return {
		'/tt-rss/': {
			target: target.origin,
			changeOrigin: true,
			rewrite: (path) => targetPath + path.slice('/tt-rss/'.length)
		}
	};
}

export default defineConfig({
	plugins: [sveltekit()],
	server: { proxy: ttrssProxy(), port: 5173, strictPort: true },
	preview: { proxy: ttrssProxy(), port: 4173, strictPort: true },
	test: {
		projects: [
			{
				extends: true,
				test: {
					name: 'unit',
					include: ['src/**/*.spec.ts'],
					environment: 'node'
				}
			},
			{
				extends: true,
				test: {
					name: 'contract',
					include: ['tests/contract/**/*.spec.ts'],
					environment: 'node',
					// Contract tests share one real server and reset its database: never in parallel.
					fileParallelism: false,
					testTimeout: 60_000,
					hookTimeout: 120_000
				}
			}
		]
	}
});
