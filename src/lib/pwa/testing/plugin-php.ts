// What the plugin's PHP specs share: where the repository and both tt-rss versions' classes are,
// whether PHP is here, and the current tt-rss's classes taken from its tarball into a folder of the
// spec's own (removed after it).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { ttrssTarball } from '../../../../tests/support/ttrss-tarball';

/** The repository's root. */
export const ROOT = join(import.meta.dirname, '../../../..');
/** Debian's 2021 tt-rss (the test bed's): its classes folder. */
export const DEBIAN_CLASSES = '/usr/share/tt-rss/www/classes';
/** Debian's 2021 Plugin class. */
export const DEBIAN_PLUGIN = `${DEBIAN_CLASSES}/plugin.php`;
/** The current tt-rss's tarball, where the test bed finds it. */
export const VENDORED = ttrssTarball();

export const hasPhp = (() => {
	try {
		execFileSync('php', ['-v'], { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
})();

/** Whether the current tt-rss's tarball is here. */
export const hasCurrent = existsSync(VENDORED);

/**
 * A reader of the current tt-rss's classes (`Plugin.php`, `UrlHelper.php`…): each taken from the
 * tarball into a folder made for the calling spec, removed after its tests.
 */
export function currentClasses(prefix: string): (file: string) => string {
	const work = mkdtempSync(join(tmpdir(), prefix));
	afterAll(() => rmSync(work, { recursive: true, force: true }));
	return (file) => {
		execFileSync('tar', ['-xzf', VENDORED, '-C', work, `tt-rss/classes/${file}`]);
		return join(work, 'tt-rss/classes', file);
	};
}
