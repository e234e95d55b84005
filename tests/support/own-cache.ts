/** The cache made the test account's (factories.ts `TEST_ACCOUNT`), as a sign-in makes it. */
import { setShownAccount } from '$lib/db/account';
import { CACHE_OWNER } from '$lib/db/keys';
import { putStored } from '$lib/db/kv';
import { openReaderDb } from '$lib/db/open';
import { TEST_ACCOUNT } from './factories';

/**
 * Makes the cache `account`'s and this test's page work for it, as a sign-in does: a write into
 * the cache needs an owner equal to the account it was fetched for (db/account.ts mayWriteCache).
 */
export async function ownCacheForTests(account: string = TEST_ACCOUNT): Promise<void> {
	setShownAccount(account);
	const db = await openReaderDb();
	await putStored(CACHE_OWNER, account, db);
}
