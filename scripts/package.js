// `npm run package`: the release archive a tt-rss user unpacks into `plugins.local/` (docs/deploy.md).
//
//   node scripts/package.js [--version 1.2.0] [--out dist]
//
// Builds the portable app (PORTABLE=1: works under any folder, svelte.config.js) into `reader/`,
// adds the tt-rss plugin (package/init.php, class Reader in folder reader), index.php (the page for
// servers whose directory index is index.php only, with the policy as headers), INSTALL and SHA256SUMS
// of every file, and writes `ttrss-reader-<version>.tar.gz` and `.zip` with a SHA256SUMS of both.
// The build carries LICENSE.txt and THIRD-PARTY-NOTICES.txt (deploy/third-party-notices.js).
// The version defaults to package.json's; with the commit it names the build (the service worker's
// cache and the "New version available" offer), so every release must have its own.
//
// Reproducible: the same commit gives the same bytes. Nothing in it reads the clock: every file and
// folder carries the commit's time (SOURCE_DATE_EPOCH when set), modes 644/755, owner 0:0, entries
// in name order, gzip without a name or time, zip without extra fields and its times in UTC.
// (Byte-identical with the same tar, gzip and zip: the release workflow runs Debian 12's.)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	chmodSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	utimesSync,
	writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shortCommit, sourceCommit, sourceDateEpoch } from '../deploy/build-info.js';
import { securityHeaders } from '../deploy/csp.js';
import { LICENSE_FILE, NOTICES_FILE } from '../deploy/third-party-notices.js';

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

/**
 * Gives every folder below `dir` (and `dir`) mode 755, every file 644, and all of them the time
 * `epoch`: what the archives record, whatever the umask and the clock were.
 * @param {string} dir @param {number} epoch
 */
export function normalizeTree(dir, epoch) {
	/** @param {string} at */
	const walk = (at) => {
		for (const name of readdirSync(at)) {
			const path = join(at, name);
			if (statSync(path).isDirectory()) walk(path);
			else chmodSync(path, 0o644);
			utimesSync(path, epoch, epoch);
		}
		chmodSync(at, 0o755);
		utimesSync(at, epoch, epoch);
	};
	walk(dir);
}

/**
 * Writes `tar` and `zip` of `stage/<folder>`, the same bytes for the same files, modes and times.
 * @param {string} stage @param {string} folder @param {number} epoch
 * @param {{ tar: string, zip: string }} into
 */
export function writeArchives(stage, folder, epoch, into) {
	const files = listFiles(join(stage, folder)).map((f) => join(folder, f));
	const tar = execFileSync(
		'tar',
		[
			'--create',
			'--format=gnu',
			'--sort=name',
			'--owner=0',
			'--group=0',
			'--numeric-owner',
			`--mtime=@${epoch}`,
			'--file=-',
			'-C',
			stage,
			folder
		],
		{ maxBuffer: 1 << 30 }
	);
	// -n: no file name or time in gzip's header.
	writeFileSync(into.tar, execFileSync('gzip', ['-9n'], { input: tar, maxBuffer: 1 << 30 }));
	// -X: no extra fields (uid/gid, times of their own); -D: no folder entries; the names from
	// stdin in sorted order. zip keeps DOS times in local time: UTC makes them the same anywhere.
	execFileSync('zip', ['-qXD', into.zip, '-@'], {
		cwd: stage,
		input: `${files.join('\n')}\n`,
		env: { ...process.env, TZ: 'UTC' }
	});
}

/**
 * One file of `package/` (the plugin's PHP, index.php, INSTALL) with the release's version in it.
 * @param {string} name @param {string} version
 */
export function stampedPluginFile(name, version) {
	return readFileSync(join(ROOT, 'package', name), 'utf8').replaceAll('@VERSION@', version);
}

/** The plugin's PHP files: what tt-rss loads from `plugins.local/reader/`. */
export const PLUGIN_PHP = ['init.php', 'shared-settings.php'];

/** @param {{ version?: string, out?: string, epoch?: number }} options */
export function makePackage({ version, out = join(ROOT, 'dist'), epoch = sourceDateEpoch() } = {}) {
	const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
	const v = version ?? pkg.version;
	if (!/^[0-9A-Za-z][0-9A-Za-z.+-]*$/.test(v)) throw new Error(`bad version ${v}`);
	const commit = sourceCommit();
	const stage = join(tmpdir(), `ttrss-reader-${process.pid}-${Date.now()}`);
	const app = join(stage, FOLDER);
	const work = join(ROOT, 'node_modules/.cache/package', String(process.pid));
	try {
		// Its output only when it fails: SvelteKit says on every run that tsconfig.json extends
		// .svelte-kit's, not this build's own working folder (which is on purpose).
		execFileSync('npx', ['vite', 'build', '--logLevel', 'error'], {
			cwd: ROOT,
			stdio: ['ignore', 'pipe', 'pipe'],
			maxBuffer: 1 << 26,
			env: {
				...process.env,
				PORTABLE: '1',
				BASE_PATH: '',
				BUILD_DIR: app,
				// The worker's cache and SvelteKit's version.json: the release and its commit (semver
				// build metadata), so two commits packaged under one version never share a cache.
				APP_VERSION: `${v}+${shortCommit(commit)}`,
				// What Settings → About shows (deploy/build-info.js).
				APP_RELEASE: v,
				APP_COMMIT: commit,
				SVELTEKIT_OUT_DIR: work,
				NODE_ENV: 'production'
			}
		});
		/** @param {string} name */
		const stamped = (name) => stampedPluginFile(name, v);
		for (const name of PLUGIN_PHP) writeFileSync(join(app, name), stamped(name));
		const csp = securityHeaders()['Content-Security-Policy'];
		// It goes into a double-quoted PHP string.
		if (/["$\\]/.test(csp)) throw new Error('package: the policy has a character PHP would read');
		writeFileSync(join(app, 'index.php'), stamped('index.php').replace('@CSP@', csp));
		writeFileSync(join(app, 'INSTALL'), stamped('INSTALL'));
		for (const name of [LICENSE_FILE, NOTICES_FILE]) {
			if (!existsSync(join(app, name))) throw new Error(`package: the build has no ${name}`);
		}
		assertClassicWorker(readFileSync(join(app, 'service-worker.js'), 'utf8'));
		writeFileSync(join(app, 'SHA256SUMS'), sha256sums(app, listFiles(app)));
		normalizeTree(stage, epoch);

		mkdirSync(out, { recursive: true });
		const name = `ttrss-reader-${v}`;
		const tar = join(out, `${name}.tar.gz`);
		const zip = join(out, `${name}.zip`);
		rmSync(tar, { force: true });
		rmSync(zip, { force: true });
		// The files carry the commit's time, not a fixed old one: servers that send no Cache-Control
		// (stock Apache, nginx) let browsers keep a file for a tenth of its age, so a release's files
		// are about as young as the release (docs/deploy.md, "Caching").
		writeArchives(stage, FOLDER, epoch, { tar, zip });
		writeFileSync(join(out, 'SHA256SUMS'), sha256sums(out, [`${name}.tar.gz`, `${name}.zip`]));
		return { version: v, commit, epoch, tar, zip, files: listFiles(app) };
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
		const sum = createHash('sha256').update(readFileSync(file)).digest('hex');
		console.log(`${relative(process.cwd(), file)}  ${statSync(file).size} bytes  sha256 ${sum}`);
	}
	console.log(
		`${made.files.length} files in ${FOLDER}/, commit ${made.commit}, file times ${new Date(made.epoch * 1000).toISOString()}`
	);
}

/**
 * The service worker is registered as a classic script: `import.meta` there is a syntax error and
 * `import()` is refused at run time, and either leaves the app without its worker (a lazy import
 * bundled into the sync's code did, 2026-12-07, and only an e2e wait for the worker saw it).
 * @param {string} source
 */
export function assertClassicWorker(source) {
	try {
		new Function(source);
	} catch (error) {
		throw new Error(`package: the service worker is not a classic script (${String(error)})`, {
			cause: error
		});
	}
	if (/\bimport\s*\(/.test(source))
		throw new Error('package: the service worker imports a module at run time (import())');
}
