import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The worker objects the fake registration hands out: only their identity matters here. */
const older = { state: 'activated' } as unknown as ServiceWorker;
const newer = { state: 'installed' } as unknown as ServiceWorker;

/** What workbox-window said to the page (its `waiting` listener), and the registration's state. */
let emitWaiting: ((event: { sw: ServiceWorker }) => void) | undefined;
let active: ServiceWorker | null = null;
/** The registration the listener asked for: awaited after it, its reaction runs first. */
let asked: Promise<unknown> = Promise.resolve();

vi.mock('$app/environment', () => ({ browser: true, dev: false }));
vi.mock('$lib/boot/early-reads', () => ({ afterFirstScreen: () => Promise.resolve() }));
vi.mock('workbox-window', () => ({
	Workbox: class {
		addEventListener(type: string, listener: (event: { sw: ServiceWorker }) => void): void {
			if (type === 'waiting') emitWaiting = listener;
		}
		register(): Promise<void> {
			return Promise.resolve();
		}
	}
}));

beforeEach(() => {
	vi.resetModules();
	emitWaiting = undefined;
	vi.stubGlobal('navigator', {
		serviceWorker: {
			controller: null,
			getRegistration: () => (asked = Promise.resolve({ active, waiting: newer }))
		}
	});
	vi.stubGlobal('document', { addEventListener: () => undefined });
});

afterEach(() => {
	vi.unstubAllGlobals();
});

async function waitingSaid(): Promise<boolean> {
	const { pwaUpdate } = await import('./update.svelte');
	await pwaUpdate.register();
	emitWaiting?.({ sw: newer });
	await asked;
	return pwaUpdate.available;
}

describe('the "new version" offer', () => {
	it('comes when a newer worker waits behind an active one', async () => {
		active = older;
		expect(await waitingSaid()).toBe(true);
	});

	it('does not come for the first install, slow to activate (workbox-window still says waiting)', async () => {
		active = null;
		expect(await waitingSaid()).toBe(false);
	});
});
