import { sveltekit } from '@sveltejs/kit/vite';
import type { Plugin, ProxyOptions } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import { buildInfo } from './deploy/build-info.js';
import { securityHeaders } from './deploy/csp.js';
import { firstScreenChunks } from './deploy/first-screen-chunks.js';
import { staticSite } from './deploy/static-site.js';
import { thirdPartyNotices } from './deploy/third-party-notices.js';

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

/**
 * SvelteKit's own `vite preview` renders pages with its server build (inline bootstrap script, no
 * service-worker fallback). This serves the adapter-static output instead, exactly as the production
 * configs in deploy/ do (policy, cache headers, SPA fallback), so the end-to-end suite tests what is
 * deployed. `/tt-rss/` still goes to the proxy.
 */
function previewBuiltSite(): Plugin {
	const base = process.env.BASE_PATH ?? '';
	const out = process.env.BUILD_DIR ?? 'build';
	return {
		name: 'preview-built-site',
		configurePreviewServer(server) {
			server.middlewares.use(
				staticSite({
					root: () => out,
					base,
					// tt-rss's own paths go to the proxy, unless the app itself lives below /tt-rss/.
					passThrough: (path) =>
						path.startsWith('/tt-rss/') && (base === '' || !path.startsWith(`${base}/`))
				})
			);
		}
	};
}

/** Component tests (the `component` project), apart from the unit project's node environment. */
const COMPONENT_SPECS = 'src/**/*.component.spec.ts';

/** The version and commit Settings → About shows (src/lib/pwa/build-info.ts); fixed per commit. */
const BUILD = buildInfo();

export default defineConfig({
	plugins: [
		sveltekit(),
		previewBuiltSite(),
		thirdPartyNotices({ name: 'Reader for Tiny Tiny RSS', version: BUILD.version })
	],
	define: {
		__READER_BUILD__: JSON.stringify(BUILD),
		// The archive's build (PORTABLE=1), served by servers without a single-page fallback: the
		// address bar keeps the folder-and-query form while no worker answers (pwa/address.ts).
		__READER_PORTABLE__: JSON.stringify(process.env.PORTABLE === '1')
	},
	// The first screen's code in two files, not ~25 (deploy/first-screen-chunks.js).
	build: { rolldownOptions: { output: { codeSplitting: firstScreenChunks() } } },
	server: { proxy: ttrssProxy(), port: 5173, strictPort: true },
	// `vite preview` (what the end-to-end suite runs against) sends the production policy, so every
	// test runs under the same Content-Security-Policy as a deployed server. Not in dev: Vite's dev
	// server injects inline scripts.
	preview: { proxy: ttrssProxy(), port: 4173, strictPort: true, headers: securityHeaders() },
	test: {
		projects: [
			{
				extends: true,
				test: {
					name: 'unit',
					include: ['src/**/*.spec.ts', 'tests/chaos/**/*.spec.ts', 'scripts/**/*.spec.ts'],
					exclude: [...configDefaults.exclude, COMPONENT_SPECS],
					environment: 'node',
					setupFiles: ['tests/support/vitest-setup.ts'],
					// Many specs load fresh module copies (vi.resetModules, a page per test): on a loaded
					// 2-core machine the first test of a file took 5.1 s of Vitest's default 5 s in
					// transforming them (headlines.spec.ts beside a soak). A hang still fails.
					testTimeout: 20_000,
					hookTimeout: 30_000
				}
			},
			{
				// Components mounted in jsdom with Svelte's client runtime (the `browser` condition):
				// what they show and what their buttons do, over fake-indexeddb like the unit tests.
				extends: true,
				resolve: { conditions: ['browser'] },
				test: {
					name: 'component',
					include: [COMPONENT_SPECS],
					environment: 'jsdom',
					setupFiles: ['tests/support/vitest-setup.ts'],
					// As the unit specs': CI runs them beside the lint and the contract suites
					// (scripts/test.sh), where a file's first test also pays its modules' transform.
					testTimeout: 20_000,
					hookTimeout: 30_000
				}
			},
			{
				extends: true,
				test: {
					name: 'contract',
					include: ['tests/contract/**/*.spec.ts'],
					environment: 'node',
					setupFiles: ['tests/support/vitest-setup.ts'],
					// Contract tests share one real server and reset its database: never in parallel.
					fileParallelism: false,
					testTimeout: 60_000,
					hookTimeout: 120_000
				}
			}
		]
	}
});
