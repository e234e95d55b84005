import { afterEach, describe, expect, it, vi } from 'vitest';
import { accountOf } from '$lib/db/account';
import { storeSessionFor } from '$lib/db/device';
import { storedSession } from '$support/factories';
import { withSnapshot } from '../../service-worker/snapshot';
import {
	SNAPSHOT_ACCOUNT_HEADER,
	SNAPSHOT_ELEMENT_ID,
	SNAPSHOT_FOR_HEADER
} from './snapshot-contract';

vi.mock('$service-worker', () => ({ base: '' }));

const reader = storedSession();
const second = storedSession({ user: 'second' });
const SHELL = '<!doctype html><html><head></head><body><div></div></body></html>';

/** The copy a tab of `account` wrote of `/feed/-4`. */
function keptSnapshot(account: string | undefined): void {
	const headers: Record<string, string> = { [SNAPSHOT_FOR_HEADER]: '/feed/-4' };
	if (account !== undefined) headers[SNAPSHOT_ACCOUNT_HEADER] = account;
	vi.stubGlobal('caches', {
		has: () => Promise.resolve(true),
		// Kept here even through a switch's deletion: the check is the worker's own.
		delete: () => Promise.resolve(true),
		open: () =>
			Promise.resolve({ match: () => Promise.resolve(new Response('<p>rows</p>', { headers })) })
	});
}

const served = async (): Promise<boolean> =>
	(await (await withSnapshot(new Response(SHELL), '/feed/-4')).text()).includes(
		SNAPSHOT_ELEMENT_ID
	);

describe('the worker serves the start snapshot', () => {
	afterEach(() => {
		vi.unstubAllGlobals();
	});

	it('to the account signed in, when the copy is its own', async () => {
		await storeSessionFor(reader);
		keptSnapshot(accountOf(reader));
		expect(await served()).toBe(true);
	});

	it("never another account's, nor one written after the sign-out, nor an unnamed one", async () => {
		// A tab of the reader wrote it between the wipe and its reload; nobody is signed in.
		keptSnapshot(accountOf(reader));
		expect(await served()).toBe(false);
		// Then the second account signs in.
		await storeSessionFor(second);
		expect(await served()).toBe(false);
		keptSnapshot(undefined);
		expect(await served()).toBe(false);
	});
});
