/**
 * What each API level promises, on the server under test (TESTBED=debian|current): a feature gated
 * at a level is exercised where the server reports that level, and refused or absent below it. The
 * same file runs against both servers in CI (scripts/test.sh), so each gate is seen both ways.
 * Also the current server's behaviours that no level announces (docs/api.md, "Two servers").
 */
import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Feed, TtrssClient } from '../../src/lib/api';
import { caught } from '../support/caught';
import {
	idsByTitle,
	loggedInClient,
	lockTestbed,
	newClient,
	resetTestbed,
	testbed
} from './testbed';

let client: TtrssClient;
let level: number;

async function feedByFile(file: string): Promise<Feed> {
	const feed = (await client.getFeeds({ catId: -3 })).find((f) => f.feedUrl?.endsWith(`/${file}`));
	if (!feed) throw new Error(`no feed ${file}`);
	return feed;
}

/**
 * The raw reply to a POST of `body` with `contentType`, as the server sends it. On a connection of
 * its own: one kept alive by fetch across a synchronous reset can be closed by Apache meanwhile.
 */
function rawPost(body: string, contentType: string): Promise<unknown> {
	return new Promise((resolve, reject) => {
		const req = request(
			testbed.apiUrl,
			{ method: 'POST', agent: false, headers: { 'Content-Type': contentType } },
			(res) => {
				let text = '';
				res.setEncoding('utf8');
				res.on('data', (chunk: string) => (text += chunk));
				res.on('end', () => {
					try {
						expect(res.statusCode).toBe(200);
						resolve(JSON.parse(text) as unknown);
					} catch (error) {
						reject(error instanceof Error ? error : new Error(String(error)));
					}
				});
			}
		);
		req.on('error', reject);
		req.end(body);
	});
}

describe('API levels and server differences (real server)', () => {
	let unlock: () => void = () => {};
	beforeAll(async () => {
		unlock = await lockTestbed();
		resetTestbed();
		client = await loggedInClient();
		level = (await client.detectCapabilities()).apiLevel;
	}, 600_000);
	afterAll(() => {
		try {
			resetTestbed();
		} finally {
			unlock();
		}
	});

	it('reports the level testbed.json expects of this server', () => {
		expect(level).toBe(testbed.apiLevel);
	});

	it('19 getFeedIcon: the icon bytes from 19; below, the client refuses and the server does not know the op', async () => {
		const feed = await feedByFile('tech-news.xml');
		expect(feed.hasIcon).toBe(true);
		if (level >= 19) {
			const icon = await client.getFeedIcon(feed.id);
			expect(icon.contentType).toMatch(/^image\//);
			expect(icon.data.byteLength).toBeGreaterThan(0);
		} else {
			expect((await caught(client.getFeedIcon(feed.id))).code).toBe('UNSUPPORTED');
			const error = await caught(client.call('getFeedIcon', { id: String(feed.id) }));
			expect(error.code).toBe('UNKNOWN_METHOD');
		}
	});

	it('21 site_url: every headline links its site from 21; absent below', async () => {
		const { headlines } = await client.getHeadlines({ feedId: -4, limit: 50 });
		expect(headlines.length).toBeGreaterThan(0);
		for (const h of headlines) {
			if (level >= 21) expect(h.siteUrl).toMatch(/^http:\/\/feeds\.test\//);
			else expect(h.siteUrl).toBeUndefined();
		}
	});

	it('23 last_error and update_interval in getFeeds: a failing feed says why; absent below', async () => {
		const before = await feedByFile('big.xml');
		if (level >= 23) {
			expect(before.lastError).toBeUndefined(); // '' on the wire
			expect(before.updateInterval).toBe(0); // the user's default
		} else {
			expect(before.lastError).toBeUndefined();
			expect(before.updateInterval).toBeUndefined();
		}
		// The feed's address starts answering 404 and the server's update run records it.
		execFileSync('bash', ['testbed/condition.sh', 'feed-error', 'big.xml'], {
			stdio: ['ignore', 'ignore', 'inherit'],
			env: { ...process.env, TESTBED: testbed.server }
		});
		const failing = (await client.getFeeds({ catId: -3 })).find((f) => f.id === before.id);
		if (level >= 23) expect(failing?.lastError).toMatch(/404/);
		else expect(failing?.lastError).toBeUndefined();
		resetTestbed();
	});

	it.runIf(testbed.noBrowserUser)(
		'browser opt-in off: login succeeds, then every call from a fetch answers API_DISABLED',
		async () => {
			const user = { user: testbed.noBrowserUser, password: testbed.noBrowserPassword };
			const browserless = newClient({ credentials: () => user });
			// login carries no session yet, so the browser check does not apply to it.
			const result = await browserless.login(user);
			expect(result.sessionId).toMatch(/\w+/);
			// Node's fetch sends Sec-Fetch-Mode as a page's fetch does: the server sees a browser.
			const error = await caught(browserless.getUnread());
			expect(error).toMatchObject({ kind: 'server', code: 'API_DISABLED', retryable: false });
			expect(error.userMessage).toMatch(/browser/);
		}
	);

	it('a request whose Content-Type is not JSON: INCORRECT_USAGE with seq -1 on the current server, read anyway on Debian', async () => {
		const body = JSON.stringify({ op: 'isLoggedIn', seq: 7 });
		const reply = await rawPost(body, 'text/plain');
		if (testbed.server === 'current') {
			expect(reply).toEqual({ seq: -1, status: 1, content: { error: 'INCORRECT_USAGE' } });
		} else {
			expect(reply).toEqual({ seq: 7, status: 0, content: { status: false } });
		}
		// Both accept text/json as well as application/json.
		expect(await rawPost(body, 'text/json')).toMatchObject({ status: 0 });
	});

	it('headlines without show_content: Debian sends an empty content, the current server none', async () => {
		const [id] = await idsByTitle(client, 'Tech news 01');
		const { headlines } = await client.getHeadlines({ feedId: -1, limit: 50 });
		const h = headlines.find((x) => x.id === id);
		expect(h).toBeDefined();
		const raw = (await client.call('getHeadlines', { feed_id: -1, limit: 50 })) as Record<
			string,
			unknown
		>[];
		const wire = raw.find((x) => x.id === id);
		if (testbed.server === 'current') expect(wire).not.toHaveProperty('content');
		else expect(wire).toHaveProperty('content', '');
	});
});
