/**
 * The current tt-rss's source tarball (testbed/testbed.json's servers.current.tarball), where the
 * test bed takes it from (testbed/ttrss-source.sh, in its order): TTRSS_VENDOR_DIR when set,
 * ../shared/vendor beside the repository (TTRSS_SHARED_DIR), or the copy made from tt-rss's git
 * repository (TTRSS_SOURCE_CACHE, default /var/cache/ttrss-pwa-testbed; only checked files are kept
 * there). The first that exists; when none does, the ../shared path (tests skip on a missing file).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');

export function ttrssTarball(): string {
	const { tarball } = (
		JSON.parse(readFileSync(join(ROOT, 'testbed/testbed.json'), 'utf8')) as {
			servers: { current: { tarball: string } };
		}
	).servers.current;
	const env = process.env;
	if (env.TTRSS_VENDOR_DIR) return join(env.TTRSS_VENDOR_DIR, tarball);
	const shared = join(env.TTRSS_SHARED_DIR ?? join(ROOT, '../shared'), 'vendor', tarball);
	const cached = join(env.TTRSS_SOURCE_CACHE ?? '/var/cache/ttrss-pwa-testbed', tarball);
	return [shared, cached].find((path) => existsSync(path)) ?? shared;
}
