// The fallback page (index.html) that SvelteKit writes for a single-page app names only its entry
// chunks and the root layout as modulepreloads. The code of the screen the app opens on — the signed-in
// layout, a headline list, the error page SvelteKit always loads — is found only as each module
// arrives and is parsed: a waterfall of several round trips before the first headline, even when the
// service worker answers each from its cache. This step, run after the site is written, adds those
// modules (and their stylesheets) to index.html, so the browser asks for all of them at once.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The route files of the first screen: the list every start opens (see src/routes/login). */
export const FIRST_SCREEN = [
	'src/routes/(app)/+layout.svelte',
	'src/routes/(app)/[kind=kind]/[id]/+layout.svelte',
	'src/routes/(app)/[kind=kind]/[id]/+page.svelte',
	'@sveltejs/kit/src/runtime/components/svelte-5/error.svelte'
];

/**
 * @typedef {{ file: string, imports?: string[], css?: string[] }} ManifestChunk
 * @param {Record<string, ManifestChunk>} manifest Vite's client manifest
 * @param {string} key
 * @param {{ js: Set<string>, css: Set<string> }} into
 */
function collect(manifest, key, into) {
	const chunk = manifest[key];
	if (!chunk || into.js.has(chunk.file)) return;
	into.js.add(chunk.file);
	for (const css of chunk.css ?? []) into.css.add(css);
	for (const dep of chunk.imports ?? []) collect(manifest, dep, into);
}

/**
 * The files of the route nodes whose source is one of `routes`, with everything they import.
 * @param {{ outDir: string, routes?: string[] }} options SvelteKit's outDir
 */
export async function firstScreenFiles({ outDir, routes = FIRST_SCREEN }) {
	/** @type {Record<string, ManifestChunk>} */
	const manifest = JSON.parse(
		await readFile(join(outDir, 'output/client/.vite/manifest.json'), 'utf8')
	);
	const into = { js: new Set(), css: new Set() };
	const found = new Set();
	for (const key of Object.keys(manifest)) {
		const node = /\/generated\/client-optimized\/nodes\/\d+\.js$/.test(key);
		if (!node) continue;
		const source = await readFile(
			join(outDir, 'generated/client-optimized/nodes', key.split('/').pop() ?? ''),
			'utf8'
		);
		const route = routes.find((r) => source.includes(`${r}"`));
		if (!route) continue;
		found.add(route);
		collect(manifest, key, into);
	}
	const missing = routes.filter((r) => !found.has(r));
	if (missing.length > 0)
		throw new Error(`preload-first-screen: no route node for ${missing.join(', ')}`);
	return { js: [...into.js].sort(), css: [...into.css].sort() };
}

/**
 * Adds modulepreload and stylesheet links for `files` to `html`, skipping those already there.
 * @param {string} html @param {{ js: string[], css: string[] }} files @param {string} base
 * @returns {{ html: string, added: number }}
 */
export function addPreloads(html, files, base) {
	const links = [
		...files.js
			.filter((f) => !html.includes(`"${base}/${f}"`))
			.map((f) => `<link href="${base}/${f}" rel="modulepreload">`),
		...files.css
			.filter((f) => !html.includes(`"${base}/${f}"`))
			.map((f) => `<link href="${base}/${f}" rel="stylesheet">`)
	];
	if (links.length === 0) return { html, added: 0 };
	if (!html.includes('</head>')) throw new Error('preload-first-screen: the page has no </head>');
	return {
		html: html.replace('</head>', `\t${links.join('\n\t\t')}\n\t</head>`),
		added: links.length
	};
}

/** @param {{ dir: string, outDir: string, base: string, fallback: string }} options */
export async function preloadFirstScreen({ dir, outDir, base, fallback }) {
	const files = await firstScreenFiles({ outDir });
	const page = join(dir, fallback);
	const { html, added } = addPreloads(await readFile(page, 'utf8'), files, base);
	await writeFile(page, html);
	return added;
}

/**
 * Wraps an adapter so that its fallback page preloads the first screen's code.
 * @param {import('@sveltejs/kit').Adapter} inner
 * @param {string} dir where `inner` writes the site
 * @param {string} fallback the fallback page's name in `dir`
 * @returns {import('@sveltejs/kit').Adapter}
 */
export function withFirstScreenPreload(inner, dir, fallback) {
	return {
		...inner,
		name: `${inner.name} + first-screen preload`,
		async adapt(builder) {
			await inner.adapt(builder);
			const added = await preloadFirstScreen({
				dir,
				outDir: builder.config.kit.outDir,
				base: builder.config.kit.paths.base,
				fallback
			});
			builder.log.minor(`Added ${added} first-screen preloads to ${fallback}`);
		}
	};
}
