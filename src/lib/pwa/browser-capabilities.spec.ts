import { describe, expect, it } from 'vitest';
import { hasBackgroundSync } from './browser-capabilities';

describe('hasBackgroundSync', () => {
	it('is true where the window has SyncManager (Chromium)', () => {
		expect(hasBackgroundSync({ SyncManager: class {} })).toBe(true);
	});

	it('is false where it is missing (Firefox, Safari) and in Node', () => {
		expect(hasBackgroundSync({ ServiceWorkerRegistration: class {} })).toBe(false);
		expect(hasBackgroundSync()).toBe(false);
	});
});
