import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, ok } from '$lib/api/testing/fake-fetch';
import { accountOf, accountOfClient } from '$lib/db/account';
import { wipeAccount } from '$lib/db/device';
import { resetReaderDbForTests } from '$lib/db/open';
import { loadSession, saveSession, updateSessionId } from '$lib/db/session';
import { storedSession } from '$lib/db/testing';
import { clientFromStoredSession } from './session-client';

beforeEach(() => {
	globalThis.indexedDB = new IDBFactory();
	resetReaderDbForTests();
});

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
