import { afterEach, describe, expect, it, vi } from 'vitest';
import { PERIODIC_MIN_INTERVAL_MS, PERIODIC_SYNC_TAG, SYNC_INTERVAL_KEY } from './contract';
import { registerPeriodicSync, SYNC_EVERY_MS, syncInterval } from './triggers';

afterEach(() => {
	vi.unstubAllGlobals();
});

function withRegistration(registration: object, permission: string): void {
	vi.stubGlobal('navigator', {
		serviceWorker: { getRegistration: () => Promise.resolve(registration) },
		permissions: { query: () => Promise.resolve({ state: permission }) }
	});
}

describe('Periodic Background Sync', () => {
	it('is registered for the installed app where the browser grants it', async () => {
		const register = vi.fn(() => Promise.resolve());
		withRegistration({ periodicSync: { register } }, 'granted');
		expect(await registerPeriodicSync()).toBe(true);
		expect(register).toHaveBeenCalledWith(PERIODIC_SYNC_TAG, {
			minInterval: PERIODIC_MIN_INTERVAL_MS
		});
	});

	it('degrades quietly where it is missing (Firefox, WebKit) or not granted', async () => {
		withRegistration({}, 'granted');
		expect(await registerPeriodicSync()).toBe(false);
		const register = vi.fn(() => Promise.resolve());
		withRegistration({ periodicSync: { register } }, 'prompt');
		expect(await registerPeriodicSync()).toBe(false);
		expect(register).not.toHaveBeenCalled();
		vi.stubGlobal('navigator', {});
		expect(await registerPeriodicSync()).toBe(false);
	});
});

describe('the interval between syncs while visible', () => {
	it('is a few minutes, shortened for tests through localStorage only', () => {
		const store = new Map<string, string>();
		vi.stubGlobal('localStorage', { getItem: (k: string) => store.get(k) ?? null });
		expect(syncInterval()).toBe(SYNC_EVERY_MS);
		store.set(SYNC_INTERVAL_KEY, '1000');
		expect(syncInterval()).toBe(1000);
		store.set(SYNC_INTERVAL_KEY, 'fast');
		expect(syncInterval()).toBe(SYNC_EVERY_MS);
	});
});
