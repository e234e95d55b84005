/**
 * Installs the documented Apache configuration (deploy/generate.js → deploy/apache/) into the test
 * bed's Apache, serving a given build under a base path on tt-rss's origin, and takes it out again.
 * Idempotent (a second install replaces the first) and undo-safe: the config file is checked with
 * `apachectl configtest` before Apache reloads, and removed again when the check fails; modules are
 * only disabled again if this helper enabled them.
 */
import { execFileSync } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from '../../../deploy/generate.js';

const NAME = '40-ttrss-reader-e2e';
const CONF = `/etc/apache2/conf-available/${NAME}.conf`;
/** Apache (www-data) must be able to read it, so not under a private temp directory. */
export const APACHE_ROOT = '/var/www/ttrss-reader-e2e';
const MODULES = ['headers', 'rewrite'];

function run(command: string, args: string[]): string {
	return execFileSync(command, args, { encoding: 'utf8', stdio: 'pipe' });
}

/** Can this process reconfigure the local Debian Apache? (root, apache2 tools present) */
export function canConfigureApache(): boolean {
	return (
		process.getuid?.() === 0 &&
		existsSync('/etc/apache2/conf-available') &&
		existsSync('/usr/sbin/a2enconf')
	);
}

function moduleEnabled(name: string): boolean {
	return existsSync(`/etc/apache2/mods-enabled/${name}.load`);
}

export interface ApacheSite {
	/** The config file's text as installed. */
	config: string;
	uninstall(): void;
}

export function installApacheSite(options: { buildDir: string; base: string }): ApacheSite {
	const enabledHere = MODULES.filter((m) => !moduleEnabled(m));

	rmSync(APACHE_ROOT, { recursive: true, force: true });
	mkdirSync(APACHE_ROOT, { recursive: true });
	cpSync(options.buildDir, APACHE_ROOT, { recursive: true });

	const out = mkdtempSync(join(tmpdir(), 'apache-conf-'));
	generate({ base: options.base, root: APACHE_ROOT, out });
	const config = readFileSync(join(out, 'apache/40-ttrss-reader.conf'), 'utf8');
	rmSync(out, { recursive: true, force: true });
	writeFileSync(CONF, config);

	const uninstall = () => {
		try {
			run('a2disconf', ['-q', NAME]);
		} catch {
			// not enabled
		}
		rmSync(CONF, { force: true });
		for (const m of enabledHere) run('a2dismod', ['-q', '-f', m]);
		run('apachectl', ['graceful']);
		rmSync(APACHE_ROOT, { recursive: true, force: true });
	};

	try {
		for (const m of enabledHere) run('a2enmod', ['-q', m]);
		run('a2enconf', ['-q', NAME]);
		run('apachectl', ['configtest']);
	} catch (error) {
		uninstall();
		throw error;
	}
	run('apachectl', ['graceful']);
	return { config, uninstall };
}
