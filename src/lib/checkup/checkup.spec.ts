/**
 * The check-up's diagnoses, fed by the test bed's recorded replies (both servers: API levels 15 and
 * 23) through the real client and transport. The cases the test bed can show for real (no API, wrong password, daemon,
 * a feed in error, HTML page, 401, nothing) are also run against it in
 * tests/e2e/account-tools.spec.ts; the old and new API levels and the browser opt-in of newer
 * servers only here (the test bed is level 15).
 */
import { describe, expect, it } from 'vitest';
import { TtrssClient } from '$lib/api/client';
import {
	fakeFetch,
	fail,
	recordedLevels,
	recordedReply,
	type RecordedLevel,
	type SentRequest
} from '$support/fake-fetch';
import { apiLevelFinding, checkAccount, diagnoseFailure, missingFeatures } from './checkup';

const context = { apiUrl: '/tt-rss/api/', origin: 'http://localhost' };

async function loginFailure(answer: (r: SentRequest) => Response | Promise<Response>) {
	const client = new TtrssClient({ apiUrl: '/tt-rss/api/', fetch: fakeFetch(answer).fetch });
	const error = await client.login({ user: 'u', password: 'p' }).catch((e: unknown) => e);
	return diagnoseFailure(error, context);
}

describe.each(recordedLevels)('diagnoseFailure at sign-in, recorded %s', (level) => {
	it('API access off (recorded API_DISABLED) names the preference', async () => {
		const finding = await loginFailure((r) => recordedReply(level, 'login-api-disabled', r));
		expect(finding).toMatchObject({ id: 'api-disabled', verdict: 'problem' });
		expect(finding.fix).toContain('Preferences → Preferences → General, turn on "Enable API"');
	});

	it('a wrong password (recorded LOGIN_ERROR)', async () => {
		expect((await loginFailure((r) => recordedReply(level, 'login-wrong-password', r))).id).toBe(
			'wrong-password'
		);
	});
});

describe('diagnoseFailure', () => {
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
		// Recorded on the current server (level 23) with its user whose browser API access is off.
		const fake = fakeFetch((r) =>
			recordedReply(
				'api23',
				r.body.op === 'login' ? 'login-browser-api-off' : 'browser-api-off-call',
				r
			)
		);
		const client = new TtrssClient({ apiUrl: '/tt-rss/api/', fetch: fake.fetch });
		await client.login({ user: 'u', password: 'p' });
		const [finding] = await checkAccount(client, context);
		expect(finding).toMatchObject({ id: 'browser-api-disabled', verdict: 'problem' });
		expect(finding?.fix).toContain('turn on "Enable browser-based API access"');
	});
});

/** A server answering login, getConfig and getFeedTree from one level's recordings. */
function recordedAccount(level: RecordedLevel, tree = 'getFeedTree') {
	return fakeFetch((r) => {
		switch (r.body.op) {
			case 'login':
			case 'getConfig':
				return recordedReply(level, String(r.body.op), r);
			case 'getFeedTree':
				return recordedReply(level, tree, r);
			default:
				return fail(r, 'UNKNOWN_METHOD');
		}
	});
}

describe('checkAccount on the recorded servers', () => {
	it('level 15: the old level with what it lacks, the stopped daemon and no feed errors', async () => {
		const fake = recordedAccount('api15');
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

	it('level 23: nothing lacking, the stopped daemon and no feed errors', async () => {
		const client = new TtrssClient({
			apiUrl: '/tt-rss/api/',
			fetch: recordedAccount('api23').fetch
		});
		await client.login({ user: 'u', password: 'p' });
		const findings = await checkAccount(client, context);
		expect(findings.map((f) => [f.id, f.verdict])).toEqual([
			['api-level', 'ok'],
			['daemon', 'problem'],
			['feed-errors', 'ok']
		]);
	});

	it.each([
		['api15', 'HTTP/1.0 404 File not found'],
		[
			'api23',
			'Client error: `GET http://feeds.test/feeds/gone-big.xml` resulted in a `404 File not found` response'
		]
	] as const)(
		"%s: lists the feed whose update failed, with the server's words",
		async (level, said) => {
			const client = new TtrssClient({
				apiUrl: '/tt-rss/api/',
				fetch: recordedAccount(level, 'getFeedTree-feed-error').fetch
			});
			await client.login({ user: 'u', password: 'p' });
			const findings = await checkAccount(client, context);
			expect(findings[2]).toMatchObject({
				id: 'feed-errors',
				verdict: 'problem',
				title: '1 feed fails to update'
			});
			const [item] = findings[2]?.items ?? [];
			expect(item).toMatch(
				/^Testbed Big Feed \(320 items\): The feed’s address no longer exists on its site \(HTTP 404\)\. The server said: /
			);
			expect(item).toContain(said);
		}
	);

	it('a current server lacks nothing; an old one lacks more', () => {
		expect(apiLevelFinding(23)).toMatchObject({ verdict: 'ok' });
		expect(missingFeatures(4)).toContain(
			'subscribing and unsubscribing (and so OPML import) (level 5)'
		);
	});
});
