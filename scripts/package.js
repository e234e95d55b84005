// `npm run package`: the release archive a tt-rss user unpacks into `plugins.local/` (docs/deploy.md).
//
//   node scripts/package.js [--version 1.2.0] [--out dist]
//
// Builds the portable app (PORTABLE=1: works under any folder, svelte.config.js) into `reader/`,
// adds the tt-rss plugin (package/init.php, class Reader in folder reader), index.php (the page for
// servers whose directory index is index.php only, with the policy as headers), INSTALL and SHA256SUMS
// of every file, and writes `ttrss-reader-<version>.tar.gz` and `.zip` with a SHA256SUMS of both.
// The version defaults to package.json's; it names the build (the service worker's cache and the
// "New version available" offer), so every release must have its own.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { securityHeaders } from '../deploy/csp.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** The plugin's folder and class: tt-rss loads `plugins.local/<lower-case class>/init.php`. */
export const FOLDER = 'reader';

/** @param {string} dir @returns {string[]} every file below `dir`, relative, sorted */
export function listFiles(dir) {
	/** @type {string[]} */
	const out = [];
	/** @param {string} at */
	const walk = (at) => {
		for (const name of readdirSync(at)) {
			const path = join(at, name);
			if (statSync(path).isDirectory()) walk(path);
			else out.push(relative(dir, path));
		}
	};
	walk(dir);
	return out.sort();
}

/** @param {string} dir @param {string[]} files */
export function sha256sums(dir, files) {
	return files
		.map(
			(f) =>
				`${createHash('sha256')
					.update(readFileSync(join(dir, f)))
					.digest('hex')}  ${f}\n`
		)
		.join('');
}

/** @param {{ version?: string, out?: string }} options */
export function makePackage({ version, out = join(ROOT, 'dist') } = {}) {
	const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
	const v = version ?? pkg.version;
	if (!/^[0-9A-Za-z][0-9A-Za-z.+-]*$/.test(v)) throw new Error(`bad version ${v}`);
	const stage = join(tmpdir(), `ttrss-reader-${process.pid}-${Date.now()}`);
	const app = join(stage, FOLDER);
	const work = join(ROOT, 'node_modules/.cache/package', String(process.pid));
	try {
		execFileSync('npx', ['vite', 'build', '--logLevel', 'error'], {
			cwd: ROOT,
			stdio: ['ignore', 'ignore', 'inherit'],
			env: {
				...process.env,
				PORTABLE: '1',
				BASE_PATH: '',
				BUILD_DIR: app,
				APP_VERSION: v,
				SVELTEKIT_OUT_DIR: work,
				NODE_ENV: 'production'
			}
		});
		/** @param {string} name */
		const stamped = (name) =>
			readFileSync(join(ROOT, 'package', name), 'utf8').replaceAll('@VERSION@', v);
		writeFileSync(join(app, 'init.php'), stamped('init.php'));
		const csp = securityHeaders()['Content-Security-Policy'];
		// It goes into a double-quoted PHP string.
		if (/["$\\]/.test(csp)) throw new Error('package: the policy has a character PHP would read');
		writeFileSync(join(app, 'index.php'), stamped('index.php').replace('@CSP@', csp));
		writeFileSync(join(app, 'INSTALL'), stamped('INSTALL'));
		writeFileSync(join(app, 'SHA256SUMS'), sha256sums(app, listFiles(app)));

		mkdirSync(out, { recursive: true });
		const name = `ttrss-reader-${v}`;
		const tar = join(out, `${name}.tar.gz`);
		const zip = join(out, `${name}.zip`);
		rmSync(tar, { force: true });
		rmSync(zip, { force: true });
		// Sorted names, no owner. The files keep their build time: servers that send no Cache-Control
		// (stock Apache, nginx) let browsers keep a file for a tenth of its age, so a fixed old time
		// would keep index.html cached for years.
		execFileSync('tar', [
			'--sort=name',
			'--owner=0',
			'--group=0',
			'--numeric-owner',
			'-czf',
			tar,
			'-C',
			stage,
			FOLDER
		]);
		execFileSync('zip', ['-qrX', zip, FOLDER], { cwd: stage });
		writeFileSync(join(out, 'SHA256SUMS'), sha256sums(out, [`${name}.tar.gz`, `${name}.zip`]));
		return { version: v, tar, zip, files: listFiles(app) };
	} finally {
		rmSync(stage, { recursive: true, force: true });
		rmSync(work, { recursive: true, force: true });
	}
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const args = process.argv.slice(2);
	/** @param {string} flag */
	const value = (flag) => {
		const i = args.indexOf(flag);
		return i >= 0 ? args[i + 1] : undefined;
	};
	const made = makePackage({ version: value('--version'), out: value('--out') });
	for (const file of [made.tar, made.zip]) {
		console.log(`${relative(process.cwd(), file)}  ${statSync(file).size} bytes`);
	}
	console.log(`${made.files.length} files in ${FOLDER}/`);
}
