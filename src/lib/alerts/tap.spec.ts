import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { accountOf } from '$lib/db/account';
import { storeSessionFor } from '$lib/db/device';
import { storedSession } from '$support/factories';
import { alertIsFor } from './target';

const reader = storedSession();
const second = storedSession({ user: 'second' });

describe('a notice names its account', () => {
	it('belongs to the account in its data, never to nobody', () => {
		const data = { path: 'feed/4/123', account: accountOf(reader) };
		expect(alertIsFor(data, accountOf(reader))).toBe(true);
		expect(alertIsFor(data, accountOf(second))).toBe(false);
		expect(alertIsFor(data, undefined)).toBe(false);
		expect(alertIsFor({ path: 'feed/4/123' }, accountOf(reader))).toBe(false);
		expect(alertIsFor(null, accountOf(reader))).toBe(false);
	});
});

describe('a tap on a notice (the worker)', () => {
	const openWindow = vi.fn(() => Promise.resolve(null));

	beforeEach(() => {
		vi.resetModules();
		openWindow.mockClear();
		vi.stubGlobal('self', {
			registration: { scope: 'http://app.example/' },
			clients: { matchAll: () => Promise.resolve([]), openWindow },
			addEventListener: () => undefined
		});
	});

	afterEach(() => {
		vi.unstubAllGlobals();
	});

	const tap = async (data: unknown): Promise<void> => {
		// Not a literal path: the page's type check must not take in the worker's own types.
		const entry = '../../service-worker/alerts';
		const worker = (await import(/* @vite-ignore */ entry)) as {
			openAlert: (data: unknown) => Promise<void>;
		};
		await worker.openAlert(data);
	};

	it("opens the article for the account signed in, and nothing for another account's", async () => {
		await storeSessionFor(second);
		// Shown for the reader before a switch: article 123 here is another article.
		await tap({ path: 'feed/4/123', account: accountOf(reader) });
		expect(openWindow).not.toHaveBeenCalled();
		await tap({ path: 'feed/4/123', account: accountOf(second) });
		// The folder and its query: an address every server answers with the app (pwa/address.ts).
		expect(openWindow).toHaveBeenCalledWith('http://app.example/?to=/feed/4/123');
	});

	it('opens nothing once signed out', async () => {
		await tap({ path: 'feed/4/123', account: accountOf(reader) });
		expect(openWindow).not.toHaveBeenCalled();
	});
});
