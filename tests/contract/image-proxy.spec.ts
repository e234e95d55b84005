/**
 * The Reader plugin's image proxy (package/init.php) on the real server (TESTBED=debian|current):
 * it signs no internal address an article names, and its public endpoint refuses every internal
 * address it is asked for, signed or not, before connecting (issue 55). The plugin is installed as
 * a user does (its init.php in `plugins.local/reader/`) and ticked for the reader.
 *
 * Only addresses that are safe to reach if a check failed are asked here: loopback in its
 * spellings and the test bed's own namespace. The others (169.254.169.254, 10.x, …) are covered
 * without any connection by src/lib/pwa/plugin-image-proxy.spec.ts. The test bed allows its
 * feeds host (READER_IMAGE_PROXY_ALLOW, testbed/setup.sh), as an administrator allows a LAN host;
 * the host side of the namespace (feedsHostAddress) is not allowed.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { canInstallPlugin as canInstall, withInstalledPlugin } from './plugin';
import { sql, testbed } from './testbed';

const ROOT = join(import.meta.dirname, '../..');
const feedsHostAddress = (
	JSON.parse(readFileSync(join(ROOT, 'testbed/testbed.json'), 'utf8')) as {
		feedsHostAddress: string;
	}
).feedsHostAddress;

const PROXY = new URL('public.php?op=pluginhandler&plugin=reader&pmethod=image', testbed.url).href;
const GRADIENT = `http://${testbed.feedsHost}/media/gradient-320x200.png`;

/** Internal addresses, each spelled as a feed could, with what the refusal names. */
const REFUSED: Array<[string, RegExp]> = [
	['http://127.0.0.1/tt-rss/', /127\.0\.0\.1 is loopback/],
	['http://127.1/', /spelled other than/],
	['http://0x7f.0.0.1/', /spelled other than/],
	['http://2130706433/', /spelled other than/],
	['http://017700000001/', /spelled other than/],
	['http://0177.0.0.1/', /spelled other than/],
	['http://[::1]/', /::1 is loopback/],
	['http://[::ffff:127.0.0.1]/', /IPv4-mapped loopback/],
	['http://[::ffff:7f00:1]/', /IPv4-mapped loopback/],
	['http://[::]/', /unspecified/],
	['http://0.0.0.0/', /“this network”/],
	['http://localhost/tt-rss/', /localhost|Not a remote image/],
	['http://localhost./tt-rss/', /localhost/],
	['http://vm/', /without a domain/],
	[`http://${feedsHostAddress}/`, /is private/],
	['http://127.0.0.1:8280/tt-rss/', /port 8280/],
	[`http://${testbed.feedsHost}:8000/`, /port 8000/],
	[`http://user:pass@${testbed.feedsHost}/media/red-64x48.png`, /credentials/]
];

async function api(body: Record<string, unknown>): Promise<unknown> {
	const reply = await fetch(testbed.apiUrl, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body)
	});
	const json = (await reply.json()) as { status: number; content: unknown };
	expect(json.status, JSON.stringify(json.content)).toBe(0);
	return json.content;
}

function signed(url: string, uid: number, key: string): string {
	const sig = createHmac('sha256', key)
		.update(`${String(uid)}\n${url}`)
		.digest('hex');
	return `${PROXY}&${new URLSearchParams({ uid: String(uid), url, sig }).toString()}`;
}

describe.skipIf(!canInstall)(`the image proxy on the real server (${testbed.server})`, () => {
	withInstalledPlugin(() => {
		sql(`UPDATE ttrss_entries SET content = content
				|| '<p><img src="http://10.0.0.5/x.png"><img src="http://0x7f.0.0.1/y.png">'
				|| '<img src="http://[::ffff:127.0.0.1]/z.png"><img src="http://localhost/w.png"></p>'
				WHERE title LIKE 'Tech news 01:%';`);
	});

	type Row = { title: string; content: string; reader_images?: Record<string, string> };
	let row: Row | undefined;
	let uid = 0;
	let secret = '';

	// The app's getHeadlines (with its flag) signs the row and makes the user's key.
	beforeAll(async () => {
		const { session_id: sid } = (await api({
			op: 'login',
			user: testbed.user,
			password: testbed.password
		})) as { session_id: string };
		const headlines = (await api({
			op: 'getHeadlines',
			sid,
			feed_id: 1,
			show_content: true,
			limit: 200,
			reader_image_proxy: true
		})) as Row[];
		await api({ op: 'logout', sid });
		row = headlines.find((h) => h.title.startsWith('Tech news 01:'));
		const stored = sql(`SELECT s.owner_uid || ' ' || s.content FROM ttrss_plugin_storage s
			JOIN ttrss_users u ON u.id = s.owner_uid WHERE s.name = 'Reader' AND u.login = '${testbed.user}';`);
		const match = /^(\d+) .*"image_key";s:\d+:"([0-9a-f]+)"/.exec(stored.trim());
		uid = Number(match?.[1] ?? 0);
		secret = match?.[2] ?? '';
	});

	it('signs the article’s public image and none of its internal ones', () => {
		expect(Object.keys(row?.reader_images ?? {})).toEqual([GRADIENT]);
		// The internal ones stay as the article has them, unsigned.
		for (const src of [
			'http://10.0.0.5/x.png',
			'http://0x7f.0.0.1/y.png',
			'http://localhost/w.png'
		]) {
			expect(row?.content).toContain(`src="${src}"`);
		}
		expect(row?.content.match(/pmethod=image/g)).toHaveLength(1);
		expect(secret).toMatch(/^[0-9a-f]{64}$/);
	});

	it('serves the allowed feeds host, and refuses every internal address before connecting', async () => {
		const served = await fetch(signed(GRADIENT, uid, secret));
		expect(served.status).toBe(200);
		expect(served.headers.get('content-type')).toBe('image/png');
		for (const [url, reason] of REFUSED) {
			const refused = await fetch(signed(url, uid, secret));
			const text = await refused.text();
			// 403 with the reason: not 415 (the page was fetched) nor 502 (a connection failed).
			expect(refused.status, `${url}: ${text}`).toBe(403);
			expect(text, url).toMatch(reason);
			expect(refused.headers.get('content-type')).toMatch(/^text\/plain/);
		}
	});

	it('follows a redirect only after checking it: the feeds host’s folder page is no image', async () => {
		// python's http.server answers /media with a 301 to /media/, a listing in HTML.
		const reply = await fetch(signed(`http://${testbed.feedsHost}/media`, uid, secret));
		expect(reply.status).toBe(415);
	});
});
