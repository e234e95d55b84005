// A clone with no ../shared beside it takes the current tt-rss from tt-rss's git repository
// (testbed/ttrss-source.sh, issue 56). No test here reaches the network: a local repository made
// from the vendored tarball stands in for tt-rss's. Its commit id cannot be upstream's, so the
// tests name it with TTRSS_GIT_COMMIT; the content must still be the pinned one.
import { execFileSync, spawnSync } from 'node:child_process';
import {
	appendFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ttrssTarball } from '../tests/support/ttrss-tarball';

const ROOT = join(import.meta.dirname, '..');
const SCRIPT = join(ROOT, 'testbed/ttrss-source.sh');
const pin = (
	JSON.parse(readFileSync(join(ROOT, 'testbed/testbed.json'), 'utf8')) as {
		servers: { current: { tarball: string; tarballDigest: string; gitCommit: string } };
	}
).servers.current;
const SOURCE = ttrssTarball();
const MINUTES = 60_000;

const digest = (tarball: string) =>
	execFileSync('python3', [join(ROOT, 'testbed/tarball-digest.py'), tarball], {
		encoding: 'utf8'
	}).trim();

describe.skipIf(!existsSync(SOURCE))('the tt-rss source without ../shared', () => {
	const work = mkdtempSync(join(tmpdir(), 'ttrss-source-'));
	const repo = join(work, 'repo');
	/** The vendored tree as one commit, and a commit after it with one file changed. */
	let same = '';
	let changed = '';
	const git = (...args: string[]) =>
		execFileSync(
			'git',
			['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', ...args],
			{
				cwd: repo,
				encoding: 'utf8'
			}
		).trim();

	beforeAll(() => {
		mkdirSync(repo);
		execFileSync('tar', ['-xzf', SOURCE, '-C', repo, '--strip-components=1']);
		git('init', '-q');
		// What GitHub allows: fetching a commit by its id.
		git('config', 'uploadpack.allowAnySHA1InWant', 'true');
		// -f: the tree has files its own .gitignore names (cache/*/.empty and others).
		git('add', '-f', '-A');
		git('commit', '-q', '-m', 'the vendored tree');
		same = git('rev-parse', 'HEAD');
		appendFileSync(join(repo, 'README.md'), '\nchanged\n');
		git('commit', '-q', '-a', '-m', 'one file changed');
		changed = git('rev-parse', 'HEAD');
	}, 5 * MINUTES);
	afterAll(() => rmSync(work, { recursive: true, force: true }));

	/** Runs the script with no vendored tarball to find, into its own cache folder. */
	function source(cache: string, env: Record<string, string> = {}) {
		const base = { ...process.env };
		for (const k of ['TTRSS_VENDOR_DIR', 'TTRSS_GIT_COMMIT', 'TTRSS_GIT_URL']) delete base[k];
		return spawnSync('bash', [SCRIPT], {
			encoding: 'utf8',
			env: {
				...base,
				TTRSS_SHARED_DIR: join(work, 'no-shared'),
				TTRSS_SOURCE_CACHE: join(work, cache),
				TTRSS_GIT_URL: `file://${repo}`,
				...env
			}
		});
	}

	it(
		'fetches the commit into the cache as a tarball of the pinned tree, then uses the cached one',
		() => {
			const run = source('cache-same', { TTRSS_GIT_COMMIT: same });
			expect(run.status, run.stderr).toBe(0);
			const tarball = run.stdout.trim();
			expect(tarball).toBe(join(work, 'cache-same', pin.tarball));
			expect(run.stderr).toContain(`fetching commit ${same} from file://${repo}`);
			expect(digest(tarball)).toBe(pin.tarballDigest);
			// What setup.sh's unpack_current and configure_current need of it.
			const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
			expect(files).toContain('tt-rss/update.php');
			expect(files).toContain('tt-rss/.docker/web-nginx/nginx.conf');

			// Later runs need no repository.
			const again = source('cache-same', {
				TTRSS_GIT_COMMIT: same,
				TTRSS_GIT_URL: `file://${work}/gone`
			});
			expect(again.status, again.stderr).toBe(0);
			expect(again.stdout.trim()).toBe(tarball);
			expect(again.stderr).toContain('made earlier');
		},
		5 * MINUTES
	);

	it(
		'refuses a commit whose tree is not the pinned one, and keeps nothing',
		() => {
			const run = source('cache-changed', { TTRSS_GIT_COMMIT: changed });
			expect(run.status).toBe(1);
			expect(run.stdout).toBe('');
			expect(run.stderr).toContain(
				`commit ${changed} from file://${repo} is not the pinned tt-rss tree`
			);
			expect(readdirSync(join(work, 'cache-changed'))).toEqual([]);
		},
		5 * MINUTES
	);

	it('refuses a repository without the pinned commit (this one has another id)', () => {
		const run = source('cache-pinned');
		expect(run.status).toBe(1);
		expect(run.stdout).toBe('');
		expect(run.stderr).toContain(`could not fetch commit ${pin.gitCommit} from file://${repo}`);
	});

	it('refuses a commit named other than by its full id', () => {
		const run = source('cache-short', { TTRSS_GIT_COMMIT: same.slice(0, 12) });
		expect(run.status).toBe(1);
		expect(run.stderr).toContain('must be a full 40-digit id');
	});

	it('takes TTRSS_VENDOR_DIR before anything else, and stops when the tarball is not there', () => {
		const run = source('cache-vendor', { TTRSS_VENDOR_DIR: join(work, 'no-vendor') });
		expect(run.status).toBe(1);
		expect(run.stderr).toContain('TTRSS_VENDOR_DIR is set, but');
	});
});
