// What a build says about itself: the release version and the commit it was built from (shown on
// Settings → About, stamped into the release archive by scripts/package.js), and the time the
// archive's files carry. Each is fixed by the commit, never read from the clock, so
// `npm run package` gives the same bytes for the same commit.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** @param {string[]} args @returns {string | undefined} git's answer, or undefined outside a clone */
function git(args) {
	try {
		return execFileSync('git', args, {
			cwd: ROOT,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore']
		}).trim();
	} catch {
		return undefined;
	}
}

/**
 * The commit the build is made of: `APP_COMMIT` when set (the packager computes it once for the
 * page's build and the worker's), else git's HEAD, with `-dirty` when a tracked or new file differs
 * from it (such a build is not that commit); `unknown` outside a clone.
 * @returns {string}
 */
export function sourceCommit() {
	const given = process.env.APP_COMMIT;
	if (given) return given;
	const head = git(['rev-parse', 'HEAD']);
	if (!head) return 'unknown';
	return git(['status', '--porcelain', '--untracked-files=normal']) ? `${head}-dirty` : head;
}

/** @param {string} commit @returns {string} the first 12 hex digits, keeping a `-dirty` mark */
export function shortCommit(commit) {
	return commit.replace(/^([0-9a-f]{12})[0-9a-f]+/, '$1');
}

/**
 * The time every file of the archive carries, in seconds: `SOURCE_DATE_EPOCH` when set (the
 * reproducible-builds convention), else the commit's time.
 * @returns {number}
 */
export function sourceDateEpoch() {
	const raw = process.env.SOURCE_DATE_EPOCH ?? git(['log', '-1', '--format=%ct', 'HEAD']);
	const epoch = Number(raw);
	if (!raw || !Number.isInteger(epoch) || epoch <= 0) {
		throw new Error('no commit time: run in a git clone or set SOURCE_DATE_EPOCH');
	}
	return epoch;
}

/**
 * What the About page shows: the release version (`APP_RELEASE`, set by the packager's `--version`,
 * else package.json's) and the commit.
 * @returns {{ version: string, commit: string }}
 */
export function buildInfo() {
	const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8'));
	return { version: process.env.APP_RELEASE ?? String(pkg.version), commit: sourceCommit() };
}
