import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, ok } from '$support/fake-fetch';
import { accountOf } from '$lib/db/account';
import { storeSessionFor } from '$lib/db/device';
import { openReaderDb } from '$lib/db/open';
import type { StoredSession } from '$lib/db/schema';
import { loadSession } from '$lib/db/session';
import { enqueueIntent } from '$lib/outbox/enqueue';
import { recordedSession } from '$support/recorded-server';

/** tt-rss as the Debian test bed answers these ops (tests/fixtures/recorded/api15). */
const server = fakeFetch((r) => {
	switch (r.body.op) {
		case 'login':
			return ok(r, { session_id: `sid-${String(r.body.user)}`, api_level: 15 });
		case 'getApiLevel':
			return ok(r, { level: 15 });
		case 'logout':
			return ok(r, { status: 'OK' });
		default:
			return undefined;
	}
});

/** The first account: the recorded session. */
const first: StoredSession = recordedSession('api15');

const asSecond = {
	server: 'http://tt.example/',
	user: 'second',
	password: 'pw-2',
	stayingSignedIn: false,
	singleUser: false
};

beforeEach(async () => {
	vi.resetModules();
	vi.stubGlobal('fetch', server.fetch);
	server.requests.length = 0;
	// The first account left a change behind and its session ended.
	await storeSessionFor(first);
	await enqueueIntent({ type: 'note', articleId: 4, note: 'first account note' });
});

afterEach(() => {
	vi.unstubAllGlobals();
});

async function freshSession() {
	return (await import('./session.svelte')).session;
}

describe('signing in as another account', () => {
	it('asks about the earlier account\'s changes, listed; "keep" stores them for it', async () => {
		const session = await freshSession();
		const decide = vi.fn(() => Promise.resolve('keep' as const));
		expect(await session.signIn(asSecond, decide)).toBe(true);
		expect(decide).toHaveBeenCalledOnce();
		const [others] = decide.mock.calls[0] as unknown as [{ pending: { account?: string }[] }];
		expect(others.pending.map((i) => i.account)).toEqual([accountOf(first)]);
		expect(session.account).toBe(accountOf({ apiUrl: 'http://tt.example/api/', user: 'second' }));
		const db = await openReaderDb();
		expect(await db.count('outbox')).toBe(1);
	});

	it('"discard" deletes them before the new session is stored', async () => {
		const session = await freshSession();
		expect(await session.signIn(asSecond, () => Promise.resolve('discard'))).toBe(true);
		const db = await openReaderDb();
		expect(await db.count('outbox')).toBe(0);
	});

	it('"cancel" keeps everything as it was and ends the new server session', async () => {
		const session = await freshSession();
		expect(await session.signIn(asSecond, () => Promise.resolve('cancel'))).toBe(false);
		expect(session.signedIn).toBe(false);
		expect((await loadSession())?.user).toBe('reader');
		const db = await openReaderDb();
		expect(await db.count('outbox')).toBe(1);
		expect(server.ops()).toContain('logout');
	});

	it("closes the earlier account's notifications; the same account's stay", async () => {
		const notice = { close: vi.fn() };
		const registration = { getNotifications: () => Promise.resolve([notice]) };
		vi.stubGlobal('navigator', { serviceWorker: { getRegistration: () => registration } });
		const session = await freshSession();
		await session.signIn({ ...asSecond, user: 'Reader', password: 'pw' });
		expect(notice.close).not.toHaveBeenCalled();
		await session.signIn(asSecond, () => Promise.resolve('keep'));
		expect(notice.close).toHaveBeenCalledOnce();
	});

	it('the same account signing in again is not asked', async () => {
		const session = await freshSession();
		const decide = vi.fn(() => Promise.resolve('discard' as const));
		await session.signIn({ ...asSecond, user: 'Reader', password: 'pw' }, decide);
		expect(decide).not.toHaveBeenCalled();
		const db = await openReaderDb();
		expect(await db.count('outbox')).toBe(1);
	});
});
