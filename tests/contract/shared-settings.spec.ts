/**
 * "Kept on the server" (issue 60) on the real server (TESTBED=debian|current): the Reader plugin's
 * `shared_settings` method (package/shared-settings.php) keeps the reader's settings per item in
 * tt-rss's plugin storage, through the app's own client (TtrssClient.sharedSettings). Two sessions
 * of one account stand for two devices; the second account must never see the first's items.
 */
import { describe, expect, it } from 'vitest';
import { caught } from '../support/caught';
import { sharedSettingsUrl } from '../../src/lib/api/shared-settings-op';
import { canInstallPlugin, tickPlugin, withInstalledPlugin } from './plugin';
import { loggedInClient, newClient, sql, testbed } from './testbed';

const URL_ = sharedSettingsUrl(testbed.apiUrl);

/** A raw request to the method, as a client that is not the app could send it. */
async function raw(body: unknown, init: RequestInit = {}): Promise<Response> {
	return fetch(URL_, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
		...init
	});
}

describe.skipIf(!canInstallPlugin)(`settings kept by the plugin (${testbed.server})`, () => {
	withInstalledPlugin();

	it('starts empty, and what one device puts the other reads', async () => {
		const phone = await loggedInClient();
		const desktop = await loggedInClient();
		expect(phone.sessionId).not.toBe(desktop.sessionId);
		expect((await desktop.sharedSettings()).items).toEqual({});
		const words = { value: JSON.stringify(['sponsored']), mtime: 1_000 };
		const put = await phone.sharedSettings({ 'mute.words': words });
		expect(put.items['mute.words']).toEqual(words);
		expect(put.now).toBeGreaterThan(1_700_000_000_000);
		expect((await desktop.sharedSettings()).items).toEqual({ 'mute.words': words });
	});

	it('settles a conflict per item: the later change wins and keeps what it replaced', async () => {
		const phone = await loggedInClient();
		const desktop = await loggedInClient();
		await phone.sharedSettings({ 'swipe.left': { value: '"star"', mtime: 2_000 } });
		await desktop.sharedSettings({ 'swipe.left': { value: '"read"', mtime: 3_000 } });
		// The phone's edit made earlier (offline) arrives last: it does not win.
		const late = await phone.sharedSettings({
			'swipe.left': { value: '"publish"', mtime: 2_500 },
			'swipe.right': { value: '"open"', mtime: 2_500 }
		});
		expect(late.items['swipe.left']).toEqual({
			value: '"read"',
			mtime: 3_000,
			replaced: { value: '"publish"', mtime: 2_500 }
		});
		expect(late.items['swipe.right']).toEqual({ value: '"open"', mtime: 2_500 });
		// Sending the same change again changes nothing (a replay after a lost reply).
		const again = await phone.sharedSettings({
			'swipe.left': { value: '"publish"', mtime: 2_500 }
		});
		expect(again.items).toEqual(late.items);
	});

	it('dates a change from a clock in the future now, so it cannot win for ever', async () => {
		const phone = await loggedInClient();
		const future = Date.now() + 365 * 24 * 3600 * 1000;
		const reply = await phone.sharedSettings({ 'reading.size': { value: '18', mtime: future } });
		const kept = reply.items['reading.size'];
		expect(kept?.mtime).toBeLessThanOrEqual(reply.now);
		const next = await phone.sharedSettings({
			'reading.size': { value: '20', mtime: reply.now + 1 }
		});
		expect(next.items['reading.size']?.value).toBe('20');
	});

	it('keeps them in tt-rss’s plugin storage of that user only; another account sees none', async () => {
		const stored = sql(`SELECT content FROM ttrss_plugin_storage s JOIN ttrss_users u
			ON u.id = s.owner_uid WHERE s.name = 'Reader' AND u.login = '${testbed.user}'`);
		expect(stored).toContain('shared_settings');
		expect(stored).toContain('mute.words');
		tickPlugin(testbed.secondUser);
		const other = newClient();
		await other.login({ user: testbed.secondUser, password: testbed.secondPassword });
		expect((await other.sharedSettings()).items).toEqual({});
	});

	it('answers PLUGIN_DISABLED where the user has not ticked the plugin', async () => {
		const phone = await loggedInClient();
		tickPlugin(testbed.user, 'af_comics');
		try {
			expect((await caught(phone.sharedSettings())).code).toBe('PLUGIN_DISABLED');
		} finally {
			tickPlugin(testbed.user);
		}
	});

	it('refuses a request without a live session, and malformed ones, changing nothing', async () => {
		const phone = await loggedInClient();
		const sid = phone.sessionId;
		const before = (await phone.sharedSettings()).items;
		const replies = await Promise.all([
			raw({ seq: 1 }),
			raw({ sid: 'not-a-session', seq: 1 }),
			raw({ sid: "x'; DROP TABLE", seq: 1 }),
			raw({ sid, seq: 2, put: { 'Bad Key': { value: '1', mtime: 1 } } }),
			raw({ sid, seq: 3, put: { 'a.b': { value: 'not json', mtime: 1 } } }),
			raw({ sid, seq: 4, put: { 'a.b': { value: '1', mtime: 'soon' } } }),
			raw({ sid, seq: 5, put: { 'a.b': { value: 'x'.repeat(70_000), mtime: 1 } } }),
			fetch(URL_, { method: 'POST', body: 'garbage' }),
			fetch(URL_)
		]);
		const errors = await Promise.all(
			replies.map(async (r) => {
				expect(r.headers.get('set-cookie')).toBeNull();
				return ((await r.json()) as { status: number; content: { error: string } }).content.error;
			})
		);
		expect(errors).toEqual([
			'NOT_LOGGED_IN',
			'NOT_LOGGED_IN',
			'NOT_LOGGED_IN',
			'INCORRECT_USAGE',
			'INCORRECT_USAGE',
			'INCORRECT_USAGE',
			'INCORRECT_USAGE',
			'INCORRECT_USAGE',
			'INCORRECT_USAGE'
		]);
		expect((await phone.sharedSettings()).items).toEqual(before);
		// After logout the session is gone: the method refuses it too.
		const ended = await raw({ sid, seq: 6 });
		await phone.logout();
		const afterLogout = await raw({ sid, seq: 7 });
		expect(((await ended.json()) as { status: number }).status).toBe(0);
		expect(((await afterLogout.json()) as { content: { error: string } }).content.error).toBe(
			'NOT_LOGGED_IN'
		);
	});
});
