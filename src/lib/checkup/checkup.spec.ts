/**
 * The check-up's diagnoses, fed by the test bed's recorded replies (API level 15) through the real
 * client and transport. The cases the test bed can show for real (no API, wrong password, daemon,
 * a feed in error, HTML page, 401, nothing) are also run against it in
 * tests/e2e/account-tools.spec.ts; the old and new API levels and the browser opt-in of newer
 * servers only here (the test bed is level 15).
 */
import { describe, expect, it } from 'vitest';
import { TtrssClient } from '$lib/api';
import {
	fakeFetch,
	fail,
	ok,
	recorded,
	recordedContent,
	type SentRequest
} from '$lib/api/testing/fake-fetch';
import { apiLevelFinding, checkAccount, diagnoseFailure, missingFeatures } from './checkup';

const context = { apiUrl: '/tt-rss/api/', origin: 'http://localhost' };

/** Replays a recording's envelope with the request's seq. */
function replay(request: SentRequest, name: string): Response {
	const reply = structuredClone(recorded(name).reply) as { seq: unknown };
	reply.seq = request.body.seq;
	return new Response(JSON.stringify(reply), { headers: { 'Content-Type': 'text/json' } });
}

async function loginFailure(answer: (r: SentRequest) => Response | Promise<Response>) {
	const client = new TtrssClient({ apiUrl: '/tt-rss/api/', fetch: fakeFetch(answer).fetch });
	const error = await client.login({ user: 'u', password: 'p' }).catch((e: unknown) => e);
	return diagnoseFailure(error, context);
}

describe('diagnoseFailure at sign-in', () => {
	it('API access off (recorded API_DISABLED) names the preference', async () => {
		const finding = await loginFailure((r) => replay(r, 'login-api-disabled'));
		expect(finding).toMatchObject({ id: 'api-disabled', verdict: 'problem' });
		expect(finding.fix).toContain('Preferences → Preferences → General, turn on "Enable API"');
	});

	it('a wrong password (recorded LOGIN_ERROR)', async () => {
		expect((await loginFailure((r) => replay(r, 'login-wrong-password'))).id).toBe(
			'wrong-password'
		);
	});

	it('nothing answering, and another site without CORS', async () => {
		const refused = () => Promise.reject(new TypeError('Failed to fetch'));
		expect((await loginFailure(refused)).id).toBe('unreachable');
		const client = new TtrssClient({ apiUrl: 'https://rss.example.org/api/', fetch: refused });
		const error = await client.login({}).catch((e: unknown) => e);
		const finding = diagnoseFailure(error, { ...context, apiUrl: 'https://rss.example.org/api/' });
		expect(finding).toMatchObject({ id: 'other-site' });
		expect(finding.fix).toContain('https://rss.example.org');
	});

	it('HTTP authentication, a proxy sign-in page, a plain page, no API, a crash', async () => {
		const auth = await loginFailure(
			() =>
				new Response('<html><body>401</body></html>', {
					status: 401,
					headers: { 'WWW-Authenticate': 'Basic realm="private"', 'Content-Type': 'text/html' }
				})
		);
		expect(auth).toMatchObject({ id: 'http-auth' });
		expect(auth.detail).toContain('"Basic"');
		expect(auth.detail).not.toContain('private');
		const login = await loginFailure(
			() =>
				new Response(
					'<!doctype html><html><form><input name=u><input type=password name=p></form></html>',
					{ headers: { 'Content-Type': 'text/html' } }
				)
		);
		expect(login.id).toBe('sign-in-page');
		const page = await loginFailure(
			() => new Response('<!doctype html><html><body>It works!</body></html>')
		);
		expect(page.id).toBe('web-page');
		expect((await loginFailure(() => new Response('nope', { status: 404 }))).id).toBe(
			'no-api-here'
		);
		expect((await loginFailure(() => new Response('', { status: 500 }))).id).toBe('server-failing');
		expect((await loginFailure(() => new Response('{"hello":1}'))).id).toBe('not-tt-rss');
	});

	it('API_DISABLED after a successful sign-in is the browser opt-in of newer servers', async () => {
		const fake = fakeFetch((r) =>
			r.body.op === 'login' ? replay(r, 'login') : replay(r, 'login-api-disabled')
		);
		const client = new TtrssClient({ apiUrl: '/tt-rss/api/', fetch: fake.fetch });
		await client.login({ user: 'u', password: 'p' });
		const [finding] = await checkAccount(client, context);
		expect(finding).toMatchObject({ id: 'browser-api-disabled', verdict: 'problem' });
		expect(finding?.fix).toContain('turn on "Enable browser-based API access"');
	});
});

describe('checkAccount on the recorded level-15 server', () => {
	it('reports the old level with what it lacks, the stopped daemon and no feed errors', async () => {
		const fake = fakeFetch((r) => {
			switch (r.body.op) {
				case 'login':
					return replay(r, 'login');
				case 'getConfig':
					return replay(r, 'getConfig');
				case 'getFeedTree':
					return replay(r, 'getFeedTree');
				default:
					return fail(r, 'UNKNOWN_METHOD');
			}
		});
		const client = new TtrssClient({ apiUrl: '/tt-rss/api/', fetch: fake.fetch });
		await client.login({ user: 'u', password: 'p' });
		const findings = await checkAccount(client, context);
		expect(findings.map((f) => [f.id, f.verdict])).toEqual([
			['api-level', 'notice'],
			['daemon', 'problem'],
			['feed-errors', 'ok']
		]);
		expect(findings[0]?.title).toContain('API level 15; the newest is 23');
		expect(findings[0]?.items).toContain('marking search results as read (level 22)');
		expect(findings[0]?.items).not.toContain('"mark older than a day / a week as read" (level 15)');
	});

	it('lists each feed with the error the server recorded', async () => {
		const tree = structuredClone(recordedContent('getFeedTree')) as {
			categories: { items: { bare_id: number; items?: { name: string; error: string }[] }[] };
		};
		const tech = tree.categories.items.find((c) => c.bare_id === 1);
		const feed = tech?.items?.find((i) => i.name === 'Testbed Tech News');
		if (!feed) throw new Error('recording changed');
		feed.error = 'HTTP/1.0 404 File not found';
		const fake = fakeFetch((r) =>
			r.body.op === 'getFeedTree'
				? ok(r, tree)
				: r.body.op === 'getConfig'
					? ok(r, { ...(recordedContent('getConfig') as object), daemon_is_running: true })
					: replay(r, 'login')
		);
		const client = new TtrssClient({ apiUrl: '/tt-rss/api/', fetch: fake.fetch });
		await client.login({ user: 'u', password: 'p' });
		const findings = await checkAccount(client, context);
		expect(findings[1]).toMatchObject({ id: 'daemon', verdict: 'ok' });
		expect(findings[2]).toMatchObject({
			id: 'feed-errors',
			verdict: 'problem',
			title: '1 feed fails to update',
			items: [
				'Testbed Tech News: The feed’s address no longer exists on its site (HTTP 404). The server said: HTTP/1.0 404 File not found'
			]
		});
	});

	it('a current server lacks nothing; an old one lacks more', () => {
		expect(apiLevelFinding(23)).toMatchObject({ verdict: 'ok' });
		expect(missingFeatures(4)).toContain(
			'subscribing and unsubscribing (and so OPML import) (level 5)'
		);
	});
});
