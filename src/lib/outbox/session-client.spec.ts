import { describe, expect, it, vi } from 'vitest';
import { fail, fakeFetch, ok } from '$support/fake-fetch';
import { accountOf, accountOfClient } from '$lib/db/account';
import { storeSessionFor, wipeAccount } from '$lib/db/device';
import { loadSession, saveSession, updateSessionId } from '$lib/db/session';
import { storedSession } from '$support/factories';
import { pendingItems } from './outbox';
import { enqueueIntent } from './enqueue';
import { replayOutbox } from './replay';
import { clientFromStoredSession } from './session-client';
import { fakeTtrss } from '$support/fake-server';

const stored = storedSession({ sessionId: 'sid-old', password: 'pw', stayingSignedIn: true });

/** A server whose login answers a new session id. */
const loginServer = () => fakeFetch((r) => ok(r, { session_id: 'sid-new', api_level: 15 }));

describe('clientFromStoredSession', () => {
	it("is bound to the stored session's account", async () => {
		await saveSession(stored);
		const client = await clientFromStoredSession(loginServer().fetch);
		expect(client && accountOfClient(client)).toBe(accountOf(stored));
	});

	it('a sign-out while a new session id is being written never brings the session back', async () => {
		await saveSession(stored);
		const client = await clientFromStoredSession(loginServer().fetch);
		if (!client) throw new Error('no client');
		// The worker logs in again; its new id is written back while the page signs out.
		await client.login({ user: 'reader', password: 'pw' });
		await wipeAccount(accountOf(stored));
		// The write-back has no event to await: give a separate load-then-save its chance to land.
		await loadSession();
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(await loadSession()).toBeUndefined();
	});

	it("writes a new session id into the same account's record", async () => {
		await saveSession(stored);
		const client = await clientFromStoredSession(loginServer().fetch);
		await client?.login({ user: 'reader', password: 'pw' });
		await vi.waitFor(() =>
			expect(loadSession()).resolves.toMatchObject({ sessionId: 'sid-new', password: 'pw' })
		);
	});

	it('never overwrites a newer session the page stored meanwhile', async () => {
		await saveSession(stored);
		const client = await clientFromStoredSession(loginServer().fetch);
		// The page signed in again in the meantime.
		await updateSessionId(accountOf(stored), 'sid-page');
		await client?.login({ user: 'reader', password: 'pw' });
		await new Promise((resolve) => setTimeout(resolve, 0));
		await loadSession();
		expect((await loadSession())?.sessionId).toBe('sid-page');
	});
});

describe('a client belongs to one sign-in', () => {
	const alice = storedSession({
		user: 'alice',
		sessionId: 'sid-1',
		apiLevel: 18,
		password: 'hunter2',
		stayingSignedIn: true,
		signedInAt: 1,
		signInId: 'first'
	});

	it('a worker sync that outlives the sign-out does not log the account back in', async () => {
		await storeSessionFor(alice);
		const server = fakeFetch((r) => {
			if (r.body.op === 'login') return ok(r, { session_id: 'sid-2', api_level: 18 });
			if (r.body.sid === 'sid-2') return ok(r, 5);
			return fail(r, 'NOT_LOGGED_IN'); // the page's logout ended sid-1
		});
		// The worker's sync starts (Background Sync) and builds its client from the stored session…
		const client = (await clientFromStoredSession(server.fetch))!;
		// …the reader signs out in the page (server session ended, device wiped)…
		await wipeAccount(accountOf(alice));
		// …and the sync's next call meets NOT_LOGGED_IN.
		await client.getUnread().catch(() => undefined);
		expect(
			server.requests.filter((r) => r.body.op === 'login').map((r) => r.body.password)
		).toEqual([]);
	});

	it("never logs in with a later sign-in's password, even of the same account", async () => {
		await storeSessionFor(alice);
		const server = fakeFetch((r) =>
			r.body.op === 'login'
				? ok(r, { session_id: 'sid-3', api_level: 18 })
				: fail(r, 'NOT_LOGGED_IN')
		);
		const client = (await clientFromStoredSession(server.fetch))!;
		// Signed out, then in again as the same reader with a new password.
		await wipeAccount(accountOf(alice));
		await storeSessionFor({ ...alice, sessionId: 'sid-9', password: 'new', signInId: 'second' });
		await expect(client.getUnread()).rejects.toMatchObject({ code: 'SESSION_ENDED' });
		// Nothing at all is sent for the sign-in that is over.
		expect(server.requests).toEqual([]);
	});

	it('a login answered after the sign-out ends the session it opened at once', async () => {
		await storeSessionFor(alice);
		let signOut: Promise<void> | undefined;
		const server = fakeFetch((r) => {
			if (r.body.op === 'login') {
				// The reader signs out while the login is on its way.
				signOut = wipeAccount(accountOf(alice));
				return signOut.then(() => ok(r, { session_id: 'sid-new', api_level: 18 }));
			}
			if (r.body.op === 'logout') return ok(r, { status: 'OK' });
			return fail(r, 'NOT_LOGGED_IN');
		});
		const client = (await clientFromStoredSession(server.fetch))!;
		await expect(client.getUnread()).rejects.toMatchObject({ code: 'SESSION_ENDED' });
		expect(server.requests.map((r) => [r.body.op, r.body.sid])).toEqual([
			['getUnread', 'sid-1'],
			['login', undefined],
			['logout', 'sid-new']
		]);
		expect(client.sessionId).not.toBe('sid-new');
	});

	it('after a sign-out, a replay already running sends none of the wiped changes and does not sign in again', async () => {
		const server = fakeTtrss({ password: 'pw' });
		const session = storedSession({
			sessionId: 'sid-0',
			stayingSignedIn: true,
			signedInAt: Date.now(),
			password: 'pw'
		});
		await storeSessionFor(session);
		// Two changes queued: a star and a label (two calls in one plan).
		await enqueueIntent({ type: 'flag', field: 'starred', articleIds: [1], value: true });
		await enqueueIntent({ type: 'label', articleIds: [2], labelId: -1025, assign: true });
		// The reader signs out while the first call is on its way: the page logs out (the server
		// ends the session) and wipes the account, its queued changes included (the reader agreed).
		let signedOutAt = -1;
		const fetch: typeof server.fake.fetch = async (url, init) => {
			const body = typeof init?.body === 'string' ? init.body : '';
			if (signedOutAt < 0 && body.includes('updateArticle')) {
				signedOutAt = server.fake.requests.length + 1;
				server.sessions.clear();
				await wipeAccount(accountOf(session));
			}
			return server.fake.fetch(url, init);
		};
		// The worker's replay (its client was built from the stored session before the sign-out).
		const client = await clientFromStoredSession(fetch);
		await replayOutbox({ client: () => Promise.resolve(client) });
		expect(await pendingItems()).toEqual([]);
		const after = server.fake.ops().slice(signedOutAt);
		expect({
			after,
			server: { starred1: server.article(1).marked, label2: [...server.article(2).labels] }
		}).toEqual({ after: [], server: { starred1: false, label2: [] } });
	});
});
