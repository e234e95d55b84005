import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where the test bed lives and who may sign in: written once, in testbed/testbed.json. */
export interface Testbed {
	url: string;
	apiUrl: string;
	user: string;
	password: string;
	noApiUser: string;
	noApiPassword: string;
	/** A second API-enabled user with a feed of its own (two-account tests). */
	secondUser: string;
	secondPassword: string;
	feedsHost: string;
	feedsAddress: string;
	dbName: string;
	dbUser: string;
	dbPassword: string;
	/**
	 * The folder tt-rss loads `plugins.local/<name>/init.php` from, served at `<url>plugins.local/`
	 * (the archive's install test unpacks into it). Default: Debian's `/usr/share/tt-rss/www/…`.
	 */
	pluginsDir?: string;
}

/** Debian's tt-rss (the first test bed): its web root is /usr/share/tt-rss/www. */
export const DEBIAN_PLUGINS_DIR = '/usr/share/tt-rss/www/plugins.local';

const root = fileURLToPath(new URL('../../', import.meta.url));

export const testbed: Testbed = JSON.parse(
	readFileSync(`${root}testbed/testbed.json`, 'utf8')
) as Testbed;

/** Puts the seeded server state back (a database restored from a template, a few seconds). */
export function resetTestbed(): void {
	execFileSync('bash', [`${root}testbed/reset.sh`], {
		stdio: ['ignore', 'ignore', 'inherit'],
		// Synchronous, so no test timeout can end it: a reset that cannot get its lock must end itself.
		timeout: 180_000,
		// Apache's and PostgreSQL's tools live in sbin, which a test runner's PATH may lack.
		env: { ...process.env, PATH: `${process.env.PATH ?? ''}:/usr/sbin:/sbin` }
	});
}
