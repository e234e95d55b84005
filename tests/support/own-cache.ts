/**
 * Test helper (used only by *.spec.ts): a stored session as a sign-in to the test bed leaves it
 * (API level 15, the level of tests/fixtures/recorded/api15; `recordedSession` in state/testing
 * gives the level of either folder), with the fields a test is about given as overrides.
 */
import { setShownAccount } from './account';
import { CACHE_OWNER } from './keys';
import { putStored } from './kv';
import { openReaderDb } from './open';
import type { StoredSession } from './schema';

export function storedSession(overrides: Partial<StoredSession> = {}): StoredSession {
	return {
		apiUrl: 'http://tt.example/api/',
		user: 'reader',
		sessionId: 'sid-reader',
		apiLevel: 15,
		stayingSignedIn: false,
		singleUser: false,
		signedInAt: 1,
		...overrides
	};
}

/** The account of `storedSession()`: `reader@http://tt.example/api/`. */
export const TEST_ACCOUNT = 'reader@http://tt.example/api/';

/**
 * Makes the cache `account`'s and this test's page work for it, as a sign-in does: a write into
 * the cache needs an owner equal to the account it was fetched for (db/account.ts mayWriteCache).
 */
export async function ownCacheForTests(account: string = TEST_ACCOUNT): Promise<void> {
	setShownAccount(account);
	const db = await openReaderDb();
	await putStored(CACHE_OWNER, account, db);
}
