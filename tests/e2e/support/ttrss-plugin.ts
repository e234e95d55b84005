/**
 * The release archive (`npm run package`) installed into a test bed as a user does it: unpacked into
 * tt-rss's `plugins.local/`, the plugin ticked for one user. Taken out again afterwards (the folder,
 * and `plugins.local/` itself when this helper made it; the user's plugin list as it was).
 *
 * Which server: testbed.json's `url` (the app is then at `<url>plugins.local/reader/`), `dbName` and
 * `pluginsDir` (default: Debian's; the current tt-rss test bed's is
 * `/opt/ttrss-current/html/tt-rss/plugins.local`). Enabling writes the user preference `_ENABLED_PLUGINS` that
 * Preferences → Plugins writes, with psql as the postgres superuser on this machine.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makePackage, PLUGIN_PHP, stampedPluginFile } from '../../../scripts/package.js';
import { DEBIAN_PLUGINS_DIR, testbed, testbedCondition } from '../../support/testbed';

export const PLUGIN_FOLDER = 'reader';
export const pluginsDir = testbed.pluginsDir ?? DEBIAN_PLUGINS_DIR;
/** Where the unpacked app is served: tt-rss's own address plus the folder. */
export const pluginAppUrl = new URL(`plugins.local/${PLUGIN_FOLDER}/`, testbed.url).href;

/** Can this process install into the test bed's tt-rss? (root, the folder's parent exists) */
export function canInstallPlugin(): boolean {
	return process.getuid?.() === 0 && existsSync(join(pluginsDir, '..', 'index.php'));
}

/**
 * Builds one release archive (about 15 s); returns the .tar.gz path. `epoch`: its files' time
 * (default the commit's); a later release is a later commit.
 */
export function buildArchive(version: string, out: string, epoch?: number): string {
	return makePackage({ version, out, ...(epoch === undefined ? {} : { epoch }) }).tar;
}

export interface InstalledPlugin {
	/** Unpacks another archive over the folder, as an upgrade does. */
	upgrade(archive: string): void;
	uninstall(): void;
}

export function installArchive(archive: string): InstalledPlugin {
	return installInto(() => unpack(archive));
}

/**
 * Unpacks with the files' times set to now (`--touch`): an archive keeps its commit's time, so two
 * specs' archives of one commit (other versions) write init.php with the same time, and PHP's
 * opcache, which compares times, went on running the first one's (the check-up then saw the
 * full-text spec's 0.0.1 plugin in plugin-addresses, 2026-12-07).
 */
function unpack(archive: string): void {
	execFileSync('tar', ['-xzf', archive, '-C', pluginsDir, '--touch']);
}

/**
 * The plugin's PHP alone, without the app (no build): for a harness that serves the app itself
 * (the engines suite) and needs only the plugin's hooks and methods on the server.
 */
export function installPluginCode(version: string): InstalledPlugin {
	const write = () => {
		mkdirSync(join(pluginsDir, PLUGIN_FOLDER), { recursive: true });
		for (const name of PLUGIN_PHP)
			writeFileSync(join(pluginsDir, PLUGIN_FOLDER, name), stampedPluginFile(name, version));
	};
	return installInto(write);
}

function installInto(install: () => void): InstalledPlugin {
	const madeDir = !existsSync(pluginsDir);
	mkdirSync(pluginsDir, { recursive: true });
	install();
	return {
		upgrade: unpack,
		uninstall() {
			rmSync(join(pluginsDir, PLUGIN_FOLDER), { recursive: true, force: true });
			if (madeDir) rmSync(pluginsDir, { recursive: true, force: true });
		}
	};
}

function sql(script: string, vars: Record<string, string>): string {
	const args = ['-u', 'postgres', '--', 'psql', '-X', '-A', '-t', '-q', '-v', 'ON_ERROR_STOP=1'];
	for (const [name, value] of Object.entries(vars)) args.push('-v', `${name}=${value}`);
	args.push('-d', testbed.dbName);
	// Variables are only interpolated in scripts read from input, not in -c.
	return execFileSync('runuser', args, { input: script, encoding: 'utf8' }).trim();
}

/** The preferences table: `ttrss_user_prefs2` on current tt-rss, `ttrss_user_prefs` on 2021's. */
function prefsTable(): string {
	const current = sql(`SELECT to_regclass('public.ttrss_user_prefs2') IS NOT NULL;`, {});
	return current === 't' ? 'ttrss_user_prefs2' : 'ttrss_user_prefs';
}

/**
 * Sets a user's enabled plugins (`_ENABLED_PLUGINS`, comma-separated) and returns the old value, to
 * give back to this function afterwards.
 */
export function setUserPlugins(user: string, plugins: string): string {
	const table = prefsTable();
	const where = `pref_name = '_ENABLED_PLUGINS' AND profile IS NULL
		AND owner_uid = (SELECT id FROM ttrss_users WHERE login = :'user')`;
	const old = sql(`SELECT value FROM ${table} WHERE ${where};`, { user });
	sql(
		`DELETE FROM ${table} WHERE ${where};
		INSERT INTO ${table} (owner_uid, pref_name, profile, value)
			SELECT id, '_ENABLED_PLUGINS', NULL, :'plugins' FROM ttrss_users WHERE login = :'user';`,
		{ user, plugins }
	);
	return old;
}

/**
 * The release archive's plugin for a spec's files: built (or E2E_PLUGIN_ARCHIVE, an archive built
 * elsewhere), installed and ticked for `user`, and a feed of the feeds host subscribed and fetched
 * for each of `feedFiles`, with its articles' ids by title. `undo` puts everything back.
 * `{ archive: false }`: the plugin's PHP only (installPluginCode), for a harness serving the app.
 */
export async function withReaderPlugin(
	version: string,
	feedFiles: readonly string[],
	client: {
		subscribeToFeed(p: { feedUrl: string }): Promise<{ feedId?: number | undefined }>;
		getHeadlines(p: { feedId: number; limit: number }): Promise<{
			headlines: { id: number; title: string }[];
		}>;
	},
	{ archive = true }: { archive?: boolean } = {}
): Promise<{
	feeds: Map<string, number>;
	articles: Map<string, number>;
	undo(): void;
}> {
	const dir = mkdtempSync(join(tmpdir(), 'reader-plugin-'));
	const installed = archive
		? installArchive(process.env.E2E_PLUGIN_ARCHIVE ?? buildArchive(version, dir))
		: installPluginCode(version);
	const oldPlugins = setUserPlugins(testbed.user, PLUGIN_FOLDER);
	const feeds = new Map<string, number>();
	const articles = new Map<string, number>();
	for (const file of feedFiles) {
		const { feedId } = await client.subscribeToFeed({
			feedUrl: `http://${testbed.feedsHost}/feeds/${file}`
		});
		if (feedId === undefined) throw new Error(`could not subscribe to ${file}`);
		testbedCondition('update-feed', String(feedId));
		feeds.set(file, feedId);
		const { headlines } = await client.getHeadlines({ feedId, limit: 200 });
		for (const h of headlines) articles.set(h.title, h.id);
	}
	return {
		feeds,
		articles,
		undo() {
			setUserPlugins(testbed.user, oldPlugins);
			installed.uninstall();
			rmSync(dir, { recursive: true, force: true });
		}
	};
}

/**
 * The user's image-proxy signing key as the plugin keeps it (tt-rss's plugin storage, made on the
 * first signed article), and the user's id: for a test to sign a URL the server never handed out.
 */
export function imageKey(user: string): { uid: number; key: string } | undefined {
	const row = sql(
		`SELECT s.owner_uid || ' ' || s.content FROM ttrss_plugin_storage s
			JOIN ttrss_users u ON u.id = s.owner_uid
			WHERE s.name = 'Reader' AND u.login = :'user';`,
		{ user }
	);
	const match = /^(\d+) .*"image_key";s:\d+:"([0-9a-f]+)"/.exec(row);
	return match ? { uid: Number(match[1]), key: String(match[2]) } : undefined;
}

/** What Preferences → Plugins → "Clear data" does for the plugin: its storage for the user goes. */
export function clearPluginData(user: string): void {
	sql(
		`DELETE FROM ttrss_plugin_storage
			WHERE name = 'Reader' AND owner_uid = (SELECT id FROM ttrss_users WHERE login = :'user');`,
		{ user }
	);
}

/**
 * Moves the next per-user article ids (ttrss_user_entries.int_id) ahead of the articles' own
 * (ttrss_entries.id, the id the API names an article by), as on a server with a history (purged
 * articles, several users): on the young test bed the two agree, and a lookup by the wrong one
 * would find the right article by chance. reset.sh puts the seed back.
 */
export function shiftUserEntryIds(by: number): void {
	sql(
		`SELECT setval('ttrss_user_entries_int_id_seq',
			(SELECT COALESCE(max(int_id), 0) FROM ttrss_user_entries) + :by);`,
		{ by: String(Math.trunc(by)) }
	);
}
