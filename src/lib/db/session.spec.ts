import { describe, expect, it } from 'vitest';
import { accountOf } from './account';
import { wipeAccount } from './device';
import { openReaderDb } from './open';
import { loadSession, saveSession, updateSessionId } from './session';
import type { StoredSession } from './schema';

const base: StoredSession = {
	apiUrl: '/tt-rss/api/',
	user: 'reader',
	sessionId: 'sid-1',
	apiLevel: 15,
	password: 'secret',
	stayingSignedIn: false,
	singleUser: false,
	signedInAt: 1
};

/** Whether the clear-text password appears anywhere in the stored record's bytes. */
async function storedBytesContain(text: string): Promise<boolean> {
	const db = await openReaderDb();
	const record = await db.get('session', 'current');
	const parts: string[] = [JSON.stringify(record)];
	if (record?.sealedPassword) {
		parts.push(new TextDecoder().decode(record.sealedPassword.data));
	}
	return parts.some((part) => part.includes(text));
}

describe('session store', () => {
	it('drops the password unless the reader chose to stay signed in', async () => {
		await saveSession(base);
		const stored = await loadSession();
		expect(stored?.sessionId).toBe('sid-1');
		expect(stored).not.toHaveProperty('password');
	});

	it('keeps the password with "stay signed in", sealed: the stored bytes are not the password', async () => {
		await saveSession({ ...base, stayingSignedIn: true });
		expect((await loadSession())?.password).toBe('secret');
		expect(await storedBytesContain('secret')).toBe(false);
		const db = await openReaderDb();
		const key = (await db.get('settings', 'session.key')) as CryptoKey;
		expect(key.extractable).toBe(false);
	});

	it('seals a password kept in clear text by an earlier version when it is first read', async () => {
		const db = await openReaderDb();
		await db.put('session', { ...base, stayingSignedIn: true }, 'current');
		expect(await storedBytesContain('secret')).toBe(true);
		expect((await loadSession())?.password).toBe('secret');
		expect(await storedBytesContain('secret')).toBe(false);
		expect((await loadSession())?.password).toBe('secret');
	});

	it('a sealed password without its key (wiped) is gone, not garbage', async () => {
		await saveSession({ ...base, stayingSignedIn: true });
		const db = await openReaderDb();
		await db.delete('settings', 'session.key');
		expect(await loadSession()).not.toHaveProperty('password');
	});

	it('sign-out wipes the session, the key and the settings', async () => {
		await saveSession({ ...base, stayingSignedIn: true });
		const db = await openReaderDb();
		await db.put('settings', 'dark', 'theme');
		await wipeAccount(accountOf(base));
		expect(await loadSession()).toBeUndefined();
		expect(await db.get('settings', 'theme')).toBeUndefined();
		expect(await db.get('settings', 'session.key')).toBeUndefined();
	});
});

describe('updateSessionId', () => {
	it("writes only into the same account's record", async () => {
		await saveSession(base);
		expect(await updateSessionId(accountOf({ ...base, user: 'other' }), 'sid-x')).toBe(false);
		expect((await loadSession())?.sessionId).toBe('sid-1');
		expect(await updateSessionId(accountOf(base), 'sid-2')).toBe(true);
		expect((await loadSession())?.sessionId).toBe('sid-2');
	});

	it('never replaces a newer session found by another tab or the worker', async () => {
		await saveSession(base);
		// This context knew sid-0; someone else already stored sid-1: its "ended" is stale.
		expect(await updateSessionId(accountOf(base), '', 'sid-0')).toBe(false);
		expect((await loadSession())?.sessionId).toBe('sid-1');
		expect(await updateSessionId(accountOf(base), '', 'sid-1')).toBe(true);
		expect((await loadSession())?.sessionId).toBe('');
	});

	it('never recreates a wiped record', async () => {
		await saveSession({ ...base, stayingSignedIn: true });
		await wipeAccount(accountOf(base));
		expect(await updateSessionId(accountOf(base), 'sid-2')).toBe(false);
		expect(await loadSession()).toBeUndefined();
	});
});
