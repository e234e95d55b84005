import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caught } from '../support/caught';
import { loggedInClient, newClient, resetTestbed, testbed, lockTestbed } from './testbed';

describe('session and server facts (real server)', () => {
	let unlock: () => void = () => {};
	// Other engineers' end-to-end runs reset the same server: wait for exclusive use (up to 10 min).
	beforeAll(async () => {
		unlock = await lockTestbed();
		resetTestbed();
	}, 600_000);
	afterAll(() => {
		try {
			resetTestbed();
		} finally {
			unlock();
		}
	});

	it('login returns a session id and the API level; capabilities follow the level', async () => {
		const client = newClient();
		const result = await client.login({ user: testbed.user, password: testbed.password });
		expect(result.sessionId).toMatch(/\w+/);
		// The server under test (TESTBED) is the one testbed.json says: Debian's 15, the current 23.
		expect(result.apiLevel).toBe(testbed.apiLevel);
		const level = result.apiLevel ?? 0;
		if (level >= 17) {
			expect(result.config).toMatchObject({ numFeeds: 7, daemonIsRunning: false });
		} else {
			expect(result.config).toBeUndefined();
		}
		expect(await client.isLoggedIn()).toBe(true);
		const caps = await client.detectCapabilities();
		expect(caps).toMatchObject({
			apiLevel: level,
			headlineLimit: 200,
			feedTree: true,
			catchupMode: true,
			loginConfig: level >= 17,
			tagFeeds: true,
			feedIcon: level >= 19,
			siteUrl: level >= 21,
			feedErrors: level >= 23,
			legacyLabelIds: false
		});
	});

	it('getApiLevel, getVersion, getConfig, getPref answer typed values', async () => {
		const client = await loggedInClient();
		expect(await client.getApiLevel()).toBe(testbed.apiLevel);
		// A git archive has no version to report: the current server says "UNKNOWN (Unsupported)".
		expect(await client.getVersion()).toMatch(
			testbed.server === 'debian' ? /21~git2021/ : /^UNKNOWN/
		);
		const config = await client.getConfig();
		expect(config.numFeeds).toBe((await client.getFeeds({ catId: -3 })).length);
		expect(typeof config.daemonIsRunning).toBe('boolean');
		expect(config.iconsUrl).not.toBe('');
		expect(await client.getPref('ENABLE_API_ACCESS')).toBe(true);
	});

	// The second user, not the test user: the current server refuses every login of a user for
	// AUTH_MIN_INTERVAL (5 s) after a failed one, which would fail the other tests' logins.
	it('wrong password → LOGIN_ERROR', async () => {
		const client = newClient();
		const error = await caught(
			client.login({ user: testbed.secondUser, password: 'not-the-password' })
		);
		expect(error).toMatchObject({ kind: 'server', code: 'LOGIN_ERROR', retryable: false });
		expect(client.sessionId).toBeUndefined();
		expect(error.userMessage).not.toContain('not-the-password');
	});

	it('right after a failed login, the right password: refused on the current server', async () => {
		const user = { user: testbed.secondUser, password: testbed.secondPassword };
		await caught(newClient().login({ ...user, password: 'not-the-password' }));
		const client = newClient();
		if (testbed.server === 'current') {
			// Throttled (plugins/auth_internal: AUTH_MIN_INTERVAL), answered as a wrong password.
			expect((await caught(client.login(user))).code).toBe('LOGIN_ERROR');
		} else {
			expect((await client.login(user)).sessionId).toMatch(/\w+/);
		}
	});

	it('the no-API user → API_DISABLED with the preference to enable', async () => {
		const error = await caught(
			newClient().login({ user: testbed.noApiUser, password: testbed.noApiPassword })
		);
		expect(error.code).toBe('API_DISABLED');
		expect(error.userMessage).toMatch(/Enable API access/);
	});

	it('unknown op → UNKNOWN_METHOD with the method name', async () => {
		const client = await loggedInClient();
		const error = await caught(client.call('bogusOperation'));
		expect(error.code).toBe('UNKNOWN_METHOD');
		expect(error.details).toMatchObject({ method: 'bogusoperation' });
	});

	it('without a session: isLoggedIn is false and ops end in SESSION_ENDED', async () => {
		const client = newClient({ sessionId: 'no-such-session' });
		expect(await client.isLoggedIn()).toBe(false);
		const error = await caught(client.getVersion());
		expect(error).toMatchObject({ kind: 'session', code: 'SESSION_ENDED' });
	});

	it('after a database reset the session is gone and the client logs in again once', async () => {
		const client = await loggedInClient();
		const before = client.sessionId;
		resetTestbed();
		expect(await client.getUnread()).toBeGreaterThan(0);
		expect(client.sessionId).not.toBe(before);
	});

	it('logout ends the session', async () => {
		const client = await loggedInClient();
		const sid = client.sessionId;
		await client.logout();
		expect(client.sessionId).toBeUndefined();
		expect(await newClient({ sessionId: sid }).isLoggedIn()).toBe(false);
	});
});
