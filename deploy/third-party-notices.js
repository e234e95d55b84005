// Every build carries the app's licence and the licences of the packages bundled into it, beside
// index.html: `LICENSE.txt` (the repository's LICENSE, GPL-3.0-or-later) and
// `THIRD-PARTY-NOTICES.txt`. Settings → About links to both; the release archive carries them.
//
// Which packages, honestly: the page's bundle is read from the build's own module graph (every
// module with code left in an output chunk, mapped to the package folder under node_modules it came
// from, and Vite's and Rolldown's injected helpers to those packages). The service worker is built
// by SvelteKit apart, with no user plugins, so its packages are found by walking its imports from
// src/service-worker/index.ts through our sources to each bare import, and from a package through
// its package.json `dependencies` (at worst more than it bundles, never less). Each package's
// licence files (LICENSE*, LICENCE*, COPYING*, NOTICE*) are copied whole.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const NOTICES_FILE = 'THIRD-PARTY-NOTICES.txt';
export const LICENSE_FILE = 'LICENSE.txt';
const NM = '/node_modules/';

/**
 * Code a bundler writes into the output from its own virtual modules: the package it comes from.
 * A virtual module not named here with code in the output fails the build, so none goes unlisted.
 */
const VIRTUAL = [
	{ test: /^\0vite\//, pkg: 'vite' },
	{ test: /^\0rolldown\//, pkg: 'rolldown' },
	{ test: /sveltekit/, pkg: '@sveltejs/kit' }
];

/** @param {string} id a module id @returns {string | undefined} its package's folder */
export function packageDirOf(id) {
	const path = id.replace(/[?#].*$/, '').replaceAll('\\', '/');
	const at = path.lastIndexOf(NM);
	if (at < 0) return undefined;
	const parts = path.slice(at + NM.length).split('/');
	// No package's name starts with a dot: node_modules/.cache/… holds builds' own generated code
	// (the packager's and the e2e builds' SvelteKit folders).
	if (parts[0]?.startsWith('.')) return undefined;
	const name = parts[0]?.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1);
	return path.slice(0, at + NM.length) + name.join('/');
}

/** @param {string} name a package name @param {string} [from] the folder importing it */
function findPackage(name, from = ROOT) {
	for (let dir = resolve(from); ; dir = dirname(dir)) {
		const candidate = join(dir, 'node_modules', name);
		if (existsSync(join(candidate, 'package.json'))) return candidate;
		if (dirname(dir) === dir) throw new Error(`notices: package ${name} not found from ${from}`);
	}
}

/** @param {string} spec a bare import @returns {string} its package name */
function packageName(spec) {
	const parts = spec.split('/');
	return (parts[0]?.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/**
 * The package folders a client build's chunks hold code of.
 * @param {Record<string, { type: string, modules?: Record<string, { renderedLength: number }> }>} bundle
 * @returns {Set<string>}
 */
export function bundledPackages(bundle) {
	/** @type {Set<string>} */
	const dirs = new Set();
	for (const chunk of Object.values(bundle)) {
		if (chunk.type !== 'chunk') continue;
		for (const [id, module] of Object.entries(chunk.modules ?? {})) {
			if (module.renderedLength === 0) continue;
			const dir = packageDirOf(id);
			if (dir) {
				dirs.add(dir);
				continue;
			}
			if (!id.startsWith('\0')) continue; // our own sources
			const known = VIRTUAL.find((v) => v.test.test(id));
			if (!known) throw new Error(`notices: code of unknown origin in the build: ${id}`);
			dirs.add(findPackage(known.pkg));
		}
	}
	return dirs;
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s*(type\s)?[^'"`;]*?from\s*['"]([^'"]+)['"]/g;
const BARE_IMPORT = /(?:^|[\s;])import\s*(?:\(\s*)?['"]([^'"]+)['"]/g;

/** @param {string} base a path without extension @returns {string | undefined} the file it names */
function sourceFile(base) {
	for (const ext of ['', '.ts', '.js', '.svelte.ts', '/index.ts', '/index.js']) {
		const file = base + ext;
		if (existsSync(file) && statSync(file).isFile()) return file;
	}
	return undefined;
}

/**
 * The packages the service worker's sources import (type-only imports aside), and theirs.
 * @param {string} entry
 * @returns {Set<string>} package folders
 */
export function workerPackages(entry = join(ROOT, 'src/service-worker/index.ts')) {
	/** @type {Set<string>} */
	const seen = new Set();
	/** @type {Set<string>} */
	const dirs = new Set();
	/** @param {string} dir */
	const addPackage = (dir) => {
		if (dirs.has(dir)) return;
		dirs.add(dir);
		const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
		for (const dep of Object.keys(pkg.dependencies ?? {})) addPackage(findPackage(dep, dir));
	};
	/** @param {string} file */
	const walk = (file) => {
		if (seen.has(file)) return;
		seen.add(file);
		// Comments out first: they talk about imports too.
		const text = readFileSync(file, 'utf8')
			.replace(/\/\*[\s\S]*?\*\//g, '')
			.replace(/(^|\s)\/\/.*$/gm, '$1');
		const specs = [
			...[...text.matchAll(IMPORT)].filter((m) => !m[1]).map((m) => m[2] ?? ''),
			...[...text.matchAll(BARE_IMPORT)].map((m) => m[1] ?? '')
		];
		for (const spec of specs) {
			if (spec.startsWith('.') || spec.startsWith('$lib/')) {
				const base = spec.startsWith('.')
					? resolve(dirname(file), spec)
					: join(ROOT, 'src/lib', spec.slice(5));
				const next = sourceFile(base.replace(/\.js$/, ''));
				if (!next) throw new Error(`notices: ${spec} (from ${file}) not found`);
				walk(next);
			} else if (spec.startsWith('$')) {
				// $service-worker, $env/…: SvelteKit writes them for this build (file lists, values);
				// none is its runtime's code.
			} else if (!spec.startsWith('node:')) {
				addPackage(findPackage(packageName(spec), dirname(file)));
			}
		}
	};
	walk(entry);
	return dirs;
}

/** @param {string} dir a package folder @returns {string} its notice: name, version, licence texts */
function packageNotice(dir) {
	const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
	const licence =
		typeof pkg.license === 'string' ? pkg.license : (pkg.license?.type ?? 'not stated');
	const files = readdirSync(dir)
		.filter((name) => /^(licen[cs]e|copying|notice)([.-].*)?$/i.test(name))
		.sort();
	const texts = files.map((name) => readFileSync(join(dir, name), 'utf8').trim());
	const home = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
	return [
		`${pkg.name} ${pkg.version}`,
		`Licence: ${licence}`,
		...(home ? [`Source: ${home}`] : []),
		'',
		texts.length > 0 ? texts.join('\n\n') : '(the package carries no licence file)'
	].join('\n');
}

/**
 * The notices file's text, packages in name order.
 * @param {Iterable<string>} dirs package folders
 * @param {{ name: string, version: string }} app
 */
export function noticesText(dirs, app) {
	const notices = new Map();
	for (const dir of dirs) {
		const { name, version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
		notices.set(`${name}@${version}`, packageNotice(dir));
	}
	const keys = [...notices.keys()].sort();
	const rule = `\n\n${'='.repeat(72)}\n\n`;
	return (
		[
			`${app.name} ${app.version} is free software under the GNU General Public License, version 3`,
			`or (at your option) any later version (${LICENSE_FILE}). It bundles the following packages,`,
			`each under its own licence, reproduced below as the package ships it:`,
			'',
			...keys.map((key) => `  ${key}`)
		].join('\n') +
		rule +
		keys.map((key) => notices.get(key)).join(rule) +
		'\n'
	);
}

/**
 * The Vite plugin: writes both files into the client build's output, which SvelteKit's adapter
 * copies beside index.html.
 * @param {{ name: string, version: string }} app
 * @returns {import('vite').Plugin}
 */
export function thirdPartyNotices(app) {
	return {
		name: 'third-party-notices',
		apply: 'build',
		generateBundle(_options, bundle) {
			if (this.environment.config.consumer !== 'client') return;
			const dirs = bundledPackages(
				/** @type {Parameters<typeof bundledPackages>[0]} */ (/** @type {unknown} */ (bundle))
			);
			for (const dir of workerPackages()) dirs.add(dir);
			this.emitFile({ type: 'asset', fileName: NOTICES_FILE, source: noticesText(dirs, app) });
			this.emitFile({
				type: 'asset',
				fileName: LICENSE_FILE,
				source: readFileSync(join(ROOT, 'LICENSE'), 'utf8')
			});
		}
	};
}
