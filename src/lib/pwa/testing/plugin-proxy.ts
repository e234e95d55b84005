// What the plugin's proxy specs share (plugin-image-proxy.spec.ts, plugin-page.spec.ts): the two
// tt-rss versions whose Plugin class loads package/init.php, and plugin-image-proxy.php, which
// drives the plugin's image or page method with stand-ins (a resolver from a table, a transport
// that records what it is asked) or its own curl transport to a spec's servers on loopback.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { currentClasses, DEBIAN_PLUGIN, hasPhp, ROOT, VENDORED } from './plugin-php';

export { hasPhp };

const DEBIAN_URLHELPER = '/usr/share/tt-rss/www/classes/urlhelper.php';

/** The test bed's feeds host, which the test bed's tt-rss allows (testbed/setup.sh). */
export const FEEDS = JSON.parse(readFileSync(join(ROOT, 'testbed/testbed.json'), 'utf8')) as {
	feedsHost: string;
	feedsAddress: string;
};

export interface Checked {
	url: string;
	signed: boolean;
	content: string;
	status: number | null;
	/** The image (base64) or a refusal's text; the page method's JSON reply, parsed. */
	body: unknown;
	fetched: string[];
	fetch_options: Record<string, unknown> | null;
	resolved: string[];
	/** The API row as the plugin's hook left it. */
	row: Record<string, unknown>;
	validate_2021?: boolean;
	validate_current?: boolean;
}

export interface Harness {
	/** Host names and the addresses the stand-in resolver gives them; absent: the system's. */
	hosts?: Record<string, string[]>;
	/** Stand-in transport: a URL answered with a redirect to another. */
	redirects?: Record<string, string>;
	/** READER_IMAGE_PROXY_ALLOW. */
	allow?: string;
	/** Also ask the image of an address the plugin did not sign (signed by the test). */
	force?: boolean;
	/** Add what the server's own UrlHelper lets through (literal addresses only). */
	compare?: boolean;
	/** The plugin's own curl transport instead of the stand-in; ports allowed besides 80/443. */
	real?: boolean;
	ports?: number[];
	/** The size limit (the image's or the page's) and the page's timeout (seconds). */
	max_bytes?: number;
	timeout?: number;
	/** `page`: each URL is an article's link, asked of the full-text page method. */
	method?: 'image' | 'page';
	/** Ask the other method with the signature given for this one. */
	call?: 'image' | 'page';
	/** The stand-in transport's page, and its Content-Type. */
	page_body?: string;
	page_type?: string;
	/** The page's bytes in base64 (a charset other than UTF-8). */
	page_body64?: string;
}

export interface ProxyServer {
	name: string;
	server: 'debian' | 'current';
	available: boolean;
	plugin: () => string;
	urlhelper: () => string;
}

/** Debian's 2021 tt-rss and the current one, whose classes are taken into a folder of `prefix`. */
export function proxyServers(prefix: string): [ProxyServer, ProxyServer] {
	const currentClass = currentClasses(prefix);
	return [
		{
			name: "Debian's 2021 tt-rss",
			server: 'debian',
			available: existsSync(DEBIAN_PLUGIN) && existsSync(DEBIAN_URLHELPER),
			plugin: () => DEBIAN_PLUGIN,
			urlhelper: () => DEBIAN_URLHELPER
		},
		{
			name: 'the current tt-rss',
			server: 'current',
			available: existsSync(VENDORED),
			plugin: () => currentClass('Plugin.php'),
			urlhelper: () => currentClass('UrlHelper.php')
		}
	];
}

function args(server: ProxyServer, urls: string[], harness: Harness): string[] {
	return [
		'-d',
		'error_reporting=0',
		join(import.meta.dirname, '../plugin-image-proxy.php'),
		server.plugin(),
		join(ROOT, 'package/init.php'),
		server.urlhelper(),
		server.server,
		JSON.stringify({ urls, hosts: null, ...harness })
	];
}

export function run(server: ProxyServer, urls: string[], harness: Harness = {}): Checked[] {
	return JSON.parse(
		execFileSync('php', args(server, urls, harness), { encoding: 'utf8' })
	) as Checked[];
}

/** The same, without blocking this process: for the tests whose servers run in it. */
export async function runAsync(
	server: ProxyServer,
	urls: string[],
	harness: Harness
): Promise<Checked[]> {
	const { stdout } = await promisify(execFile)('php', args(server, urls, harness), {
		encoding: 'utf8'
	});
	return JSON.parse(stdout) as Checked[];
}

/** Starts a spec's server on a free port of `host`. */
export function listen(server: Server, host: string): Promise<number> {
	return new Promise((resolve) => {
		server.listen(0, host, () => resolve((server.address() as AddressInfo).port));
	});
}
