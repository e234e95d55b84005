// A build that works unchanged wherever its folder is unpacked (PORTABLE=1, used by `npm run
// package`): `…/tt-rss/plugins.local/reader/`, `/reader/`, the origin's root. SvelteKit's
// `paths.relative` does not apply to a single-page app's fallback page, so this step, run after the
// site is written (the bootstrap already moved into a file, the first screen's preloads added):
//
// - points index.html's own references (`/_app/…`, `/manifest.webmanifest`, icons) at `./…`, which
//   is right where the page is served: the folder's index (servers without a single-page fallback
//   serve nothing else; the service worker serves the shell at deeper app paths with these made
//   absolute for its scope, src/service-worker/cache.ts);
// - makes the bootstrap script find the base at run time from its own address
//   (`<base>/_app/immutable/bootstrap.<hash>.js`), and import the entry chunks from there;
// - makes the manifests' addresses relative to their own (start_url, scope, icons, share target),
//   each language's;
// - adds the policy of deploy/csp.js as a `<meta http-equiv>` (minus what a meta policy cannot
//   carry), because the servers this build is meant for send no headers of ours.
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cspHeaderValue, metaCspDirectives } from './csp.js';
import { MANIFEST_FILE, MANIFEST_FILE_PATTERN } from '../src/lib/i18n/manifest-file.js';

const BOOTSTRAP = /<script src="\/(_app\/immutable\/bootstrap\.[\w-]+\.js)"><\/script>/;

/** The runtime base: the bootstrap lives two folders below it. */
const RUNTIME_ROOT = 'const root = new URL("../../", document.currentScript.src);';

/** @param {string} code the externalised bootstrap of a build whose base is '' */
export function portableBootstrap(code) {
	if (!/\bbase: ""/.test(code) || !/import\("\/_app\//.test(code)) {
		throw new Error('portable: the bootstrap script does not have the expected shape');
	}
	const body = code
		.replace(/\bbase: ""/, 'base: root.pathname.slice(0, -1)')
		.replace(/import\("\/(_app\/[^"]+)"\)/g, 'import(new URL("./$1", root).href)');
	// The script starts with a block (`{ … }`): the constant goes inside it, so nothing leaks.
	if (!body.startsWith('{')) throw new Error('portable: the bootstrap script is not a block');
	return `{\n${RUNTIME_ROOT}\n${body.slice(1)}`;
}

/** @param {string} html the fallback page of a build whose base is '' */
export function portableHtml(html) {
	const meta = `<meta http-equiv="Content-Security-Policy" content="${cspHeaderValue(metaCspDirectives)}" />`;
	if (!html.includes('<meta charset="utf-8" />')) throw new Error('portable: no charset meta');
	return html
		.replace(/\b(href|src)="\/(?!\/)/g, '$1="./')
		.replace('<meta charset="utf-8" />', `<meta charset="utf-8" />\n\t\t${meta}`);
}

/**
 * The manifest with its root-absolute addresses made relative (resolved against the manifest's own
 * address, i.e. the folder). `id` is dropped: a relative id resolves against the start URL's
 * *origin*, which would make every folder on the host one app; without it the id is the start URL,
 * `<folder>/`, as the base-path builds declare.
 * @param {Record<string, unknown>} manifest
 */
export function portableManifest(manifest) {
	/** @param {unknown} value @returns {unknown} */
	const relative = (value) => {
		if (typeof value === 'string') return value.startsWith('/') ? `.${value}` : value;
		if (Array.isArray(value)) return value.map(relative);
		if (value && typeof value === 'object') {
			return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, relative(v)]));
		}
		return value;
	};
	const out = /** @type {Record<string, unknown>} */ (relative(manifest));
	delete out.id;
	for (const key of ['start_url', 'scope']) {
		if (out[key] !== './') throw new Error(`portable: manifest ${key} is ${String(out[key])}`);
	}
	return out;
}

/** @param {{ dir: string, page: string }} options */
export async function makePortable({ dir, page }) {
	const file = join(dir, page);
	let html = await readFile(file, 'utf8');
	const found = BOOTSTRAP.exec(html);
	if (!found) throw new Error(`portable: ${page} loads no bootstrap script`);
	const old = found[1] ?? '';
	const code = portableBootstrap(await readFile(join(dir, old), 'utf8'));
	const hash = createHash('sha256').update(code).digest('base64url').slice(0, 12);
	const renamed = `_app/immutable/bootstrap.${hash}.js`;
	await rm(join(dir, old));
	await writeFile(join(dir, renamed), code);
	html = html.replace(`/${old}`, `/${renamed}`);
	await writeFile(file, portableHtml(html));
	// Every language's manifest (src/lib/i18n/manifest-file.js), the source language's included.
	const manifests = (await readdir(dir)).filter((name) => MANIFEST_FILE_PATTERN.test(name));
	if (!manifests.includes(MANIFEST_FILE)) throw new Error(`portable: no ${MANIFEST_FILE}`);
	for (const name of manifests) {
		const manifest = join(dir, name);
		const parsed = JSON.parse(await readFile(manifest, 'utf8'));
		await writeFile(manifest, JSON.stringify(portableManifest(parsed), null, '\t'));
	}
}

/**
 * Wraps an adapter so that its output works under any folder.
 * @param {import('@sveltejs/kit').Adapter} inner
 * @param {string} dir where `inner` writes the site
 * @param {string} page the fallback page's name in `dir`
 * @returns {import('@sveltejs/kit').Adapter}
 */
export function withPortablePaths(inner, dir, page) {
	return {
		...inner,
		name: `${inner.name} + portable paths`,
		async adapt(builder) {
			if (builder.config.kit.paths.base !== '') throw new Error('portable: base must be empty');
			await inner.adapt(builder);
			await makePortable({ dir, page });
			builder.log.minor(`Made ${page} and its bootstrap independent of the folder`);
		}
	};
}
