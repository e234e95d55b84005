import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordedLevels } from '$support/fake-fetch';
import { signedInPage, type Replies } from '$support/recorded-server';

const SERVER: Replies = {
	getApiLevel: 'getApiLevel',
	getVersion: 'getVersion',
	getConfig: 'getConfig',
	getFeedTree: 'getFeedTree'
};

describe.each(recordedLevels)('the check-up of the signed-in account (recorded %s)', (level) => {
	afterEach(() => {
		vi.unstubAllGlobals();
	});

	it('is led by “signed in”, then the server’s findings, asked with this session', async () => {
		const { server } = await signedInPage(SERVER, level);
		const { checkSignedInAccount } = await import('./account-checkup');
		const findings = await checkSignedInAccount('http://localhost');
		expect(findings.map((f) => f.id)).toEqual(['signed-in', 'api-level', 'daemon', 'feed-errors']);
		expect(findings[0]?.verdict).toBe('ok');
		// The stored session's id ($support/factories.ts storedSession).
		expect(server.sent('getConfig').map((r) => r.sid)).toEqual(['sid-reader']);
	});

	it('a failure of the account itself replaces the “signed in” line', async () => {
		await signedInPage({ ...SERVER, getConfig: () => undefined }, level);
		const { checkSignedInAccount } = await import('./account-checkup');
		const findings = await checkSignedInAccount('http://localhost');
		expect(findings).toHaveLength(1);
		expect(findings[0]?.id).not.toBe('signed-in');
		expect(findings[0]?.id).not.toBe('api-level');
	});
});
