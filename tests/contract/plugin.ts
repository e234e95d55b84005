/**
 * The Reader plugin installed on the real server for a contract test, as a user installs it: its
 * PHP files in `plugins.local/reader/` and the plugin ticked for the test user (the
 * `_ENABLED_PLUGINS` preference that Preferences → Plugins writes). Needs root.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DEBIAN_PLUGINS_DIR } from '../support/testbed';
import { afterAll, beforeAll } from 'vitest';
import { lockTestbed, resetTestbed, sql, testbed } from './testbed';

const ROOT = join(import.meta.dirname, '../..');
export const pluginsDir = testbed.pluginsDir ?? DEBIAN_PLUGINS_DIR;
const folder = join(pluginsDir, 'reader');
export const canInstallPlugin =
	process.getuid?.() === 0 && existsSync(join(pluginsDir, '..', 'index.php'));
/** The plugin's PHP files (package/), as the release archive carries them. */
const PHP_FILES = ['init.php', 'shared-settings.php'];

/** The table of user preferences on this server. */
export const prefsTable = testbed.server === 'debian' ? 'ttrss_user_prefs' : 'ttrss_user_prefs2';

/** Ticks the plugin for `user` (`plugins`: what `_ENABLED_PLUGINS` then holds). */
export function tickPlugin(user: string, plugins = 'reader'): void {
	const uid = `(SELECT id FROM ttrss_users WHERE login = '${user}')`;
	sql(`DELETE FROM ${prefsTable} WHERE pref_name = '_ENABLED_PLUGINS' AND owner_uid = ${uid};
		INSERT INTO ${prefsTable} (owner_uid, pref_name, profile, value)
			VALUES (${uid}, '_ENABLED_PLUGINS', NULL, '${plugins}');`);
}

/** Installs the plugin's files and ticks it for the test user; returns what takes it out again. */
export function installPlugin(): () => void {
	const madeDir = !existsSync(pluginsDir);
	mkdirSync(folder, { recursive: true });
	for (const name of PHP_FILES) copyFileSync(join(ROOT, 'package', name), join(folder, name));
	tickPlugin(testbed.user);
	return () => rmSync(madeDir ? pluginsDir : folder, { recursive: true, force: true });
}

/**
 * For a describe block: the test bed locked and reset, the plugin installed (then `setup`, e.g.
 * articles to change), and all of it taken out again afterwards.
 */
export function withInstalledPlugin(setup: () => void = () => undefined): void {
	let unlock: () => void = () => {};
	let removePlugin: () => void = () => {};
	beforeAll(async () => {
		unlock = await lockTestbed();
		resetTestbed();
		removePlugin = installPlugin();
		setup();
	}, 600_000);
	afterAll(() => {
		try {
			removePlugin();
			resetTestbed();
		} finally {
			unlock();
		}
	});
}
