/**
 * Whether this app and tt-rss's Reader plugin are the same release. The archive carries both, but
 * they can part: the app stays the browser's installed copy until the reader reloads into the next
 * one, the plugin is what tt-rss runs from the folder; a build served apart from tt-rss meets
 * whatever plugin the server has. A difference is said quietly (Settings, the check-up), with what
 * to update; nothing is refused.
 *
 * The plugin tells its version in the rows it sees when the app asks for its image proxy
 * (`reader_version` beside `reader_images`, package/init.php). A plugin older than 1.0 signs images
 * and names no version.
 */
import type { TtrssClient } from '$lib/api';
import { IMAGE_PROXY_FLAG } from '$lib/api/params';

/** What the server's rows say of the plugin. */
export type PluginFound =
	| { kind: 'none' }
	| { kind: 'unknown' }
	| { kind: 'before-versions' }
	| { kind: 'version'; version: string };

/** What to update, when app and plugin differ. */
export interface VersionAdvice {
	update: 'plugin' | 'app';
	app: string;
	/** The plugin's version; undefined for one older than 1.0 (it names none). */
	plugin: string | undefined;
}

/** What one row of the server's reply says of the plugin (raw, as tt-rss sent it). */
export function pluginInRows(rows: unknown): PluginFound {
	if (!Array.isArray(rows) || rows.length === 0) return { kind: 'unknown' };
	for (const row of rows as unknown[]) {
		if (typeof row !== 'object' || row === null) continue;
		const { reader_version: version, reader_images: images } = row as Record<string, unknown>;
		if (typeof version === 'string' && version !== '') return { kind: 'version', version };
		if (images !== undefined && images !== null) return { kind: 'before-versions' };
	}
	return { kind: 'none' };
}

/** Asks the server for one article with its body, the plugin's flag on, and reads the row. */
export async function findPlugin(client: TtrssClient): Promise<PluginFound> {
	const rows = await client.call('getHeadlines', {
		feed_id: -4,
		view_mode: 'all_articles',
		limit: 1,
		show_content: true,
		[IMAGE_PROXY_FLAG]: true
	});
	return pluginInRows(rows);
}

/** `1.2.3`, `1.0.0-rc.1`, `1.0.0+abc` → comparable parts; undefined for anything else. */
function parse(version: string): { core: number[]; pre: string } | undefined {
	const found = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(version);
	if (!found) return undefined;
	return { core: [found[1], found[2], found[3]].map(Number), pre: found[4] ?? '' };
}

/** Semver order of two versions (build metadata ignored); undefined when one is no version. */
export function compareVersions(a: string, b: string): number | undefined {
	const [x, y] = [parse(a), parse(b)];
	if (!x || !y) return undefined;
	for (let i = 0; i < 3; i++) {
		const d = (x.core[i] ?? 0) - (y.core[i] ?? 0);
		if (d !== 0) return Math.sign(d);
	}
	if (x.pre === y.pre) return 0;
	// A pre-release comes before its release.
	if (!x.pre || !y.pre) return x.pre ? -1 : 1;
	return x.pre.localeCompare(y.pre, 'en', { numeric: true }) < 0 ? -1 : 1;
}

/** What to update for `app` (this build's release) to meet the plugin found; undefined: nothing. */
export function versionAdvice(app: string, found: PluginFound): VersionAdvice | undefined {
	if (found.kind === 'before-versions') {
		// Only an app that knows versions says so; the plugin is older than the first that does.
		return parse(app) ? { update: 'plugin', app, plugin: undefined } : undefined;
	}
	if (found.kind !== 'version') return undefined;
	const order = compareVersions(app, found.version);
	if (order === undefined || order === 0) return undefined;
	return { update: order > 0 ? 'plugin' : 'app', app, plugin: found.version };
}
