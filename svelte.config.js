import adapter from '@sveltejs/adapter-static';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';
import { withExternalBootstrap } from './deploy/externalize-bootstrap.js';
import { withPortablePaths } from './deploy/portable.js';
import { withFirstScreenPreload } from './deploy/preload-first-screen.js';

// The base path is chosen at build time (BASE_PATH=/reader) so one build can live
// next to tt-rss on the same origin, which tt-rss needs because it sends no CORS headers.
const base = process.env.BASE_PATH ?? '';
// PORTABLE=1 (npm run package): one build that works wherever its folder is unpacked
// (`…/plugins.local/reader/`, `/reader/`, …). The page finds its base at run time from its bootstrap
// script's address, the worker from its own (deploy/externalize-bootstrap.js, docs/deploy.md).
const portable = process.env.PORTABLE === '1';
if (portable && base !== '') throw new Error('PORTABLE=1 builds take no BASE_PATH');
// The build's version names the service worker's cache and SvelteKit's global; Vite loads this file
// more than once per build, so a default must be fixed once (in the environment) or the page's
// bootstrap and the entry chunks disagree on the global's name.
process.env.APP_VERSION ??= String(Date.now());
// Where the site is written; tests build other versions and base paths next to the main build.
const out = process.env.BUILD_DIR ?? 'build';

/** @param {import('@sveltejs/kit').Adapter} inner */
const withPortableIf = (inner) => (portable ? withPortablePaths(inner, out, 'index.html') : inner);

/** @type {import('@sveltejs/kit').Config} */
const config = {
	preprocess: vitePreprocess(),
	kit: {
		// Test support (fakes, factories, the Vitest set-up) has one home outside the app's layers:
		// tests/support. Specs in src/ import it as `$support/…`; the app never does.
		alias: { $support: 'tests/support' },
		// A single-page app: every route is rendered in the browser from the fallback page.
		// The wrapper moves SvelteKit's inline bootstrap script into a file, so the strict
		// Content-Security-Policy (deploy/csp.js, `script-src 'self'`) needs no hash that changes per build.
		// The other wrapper adds the first screen's modules to the fallback page's preloads
		// (deploy/preload-first-screen.js): one round of requests instead of a waterfall.
		adapter: withPortableIf(
			withFirstScreenPreload(
				withExternalBootstrap(
					adapter({ pages: out, assets: out, fallback: 'index.html', strict: true }),
					out
				),
				out,
				'index.html'
			)
		),
		// Relative chunk addresses (Vite's base './') in the portable build only: a build for a base path
		// keeps root-absolute ones, as its server configurations expect.
		paths: { base, relative: portable },
		// Tests that build extra versions use their own working directory, so they never collide with
		// a build running in the same tree.
		outDir: process.env.SVELTEKIT_OUT_DIR ?? '.svelte-kit',
		serviceWorker: { register: false },
		version: { name: process.env.APP_VERSION }
	}
};

export default config;
