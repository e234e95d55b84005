import adapter from '@sveltejs/adapter-static';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

// The base path is chosen at build time (BASE_PATH=/reader) so one build can live
// next to tt-rss on the same origin, which tt-rss needs because it sends no CORS headers.
const base = process.env.BASE_PATH ?? '';

/** @type {import('@sveltejs/kit').Config} */
const config = {
	preprocess: vitePreprocess(),
	kit: {
		// A single-page app: every route is rendered in the browser from the fallback page.
		adapter: adapter({ fallback: 'index.html', strict: true }),
		paths: { base, relative: false },
		serviceWorker: { register: false },
		version: { name: process.env.APP_VERSION ?? String(Date.now()) }
	}
};

export default config;
