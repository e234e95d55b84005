import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { accountOf } from '$lib/db/account';
import { storeSessionFor } from '$lib/db/device';
import { openReaderDb } from '$lib/db/open';
import type { StoredSession } from '$lib/db/schema';
import { loadSession } from '$lib/db/session';
import { CACHE_OWNER } from '$lib/db/keys';
import { getStored } from '$lib/db/kv';
import { REPLAY_LOCK } from '$lib/outbox/outbox-contract';
import { SYNC_LOCK } from '$lib/db/names';
import { enqueueIntent } from '$lib/outbox/enqueue';
import { installWebLocks } from '$support/fake-locks';
import { MemoryStorage } from '$support/memory-storage';

/** Node has no Web Storage: a minimal one, so sign-out's clearing can be seen. */

const reader: StoredSession = {
	apiUrl: 'http://tt.example/api/',
	user: 'reader',
	sessionId: 'sid-1',
	apiLevel: 15,
	password: 'pw',
	stayingSignedIn: true,
	singleUser: false,
	signedInAt: 1
};

const deletedCaches: string[] = [];

beforeEach(() => {
	// A fresh session state per test (it restores once per page).
	vi.resetModules();
	vi.stubGlobal('localStorage', new MemoryStorage());
	vi.stubGlobal('caches', {
		delete: (name: string) => {
			deletedCaches.push(name);
			return Promise.resolve(true);
		}
	});
	// The server is unreachable: sign-out must still wipe the device.
	vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
	deletedCaches.length = 0;
});

afterEach(() => {
	vi.unstubAllGlobals();
});

async function signedInWithChanges(): Promise<void> {
	await storeSessionFor(reader);
	await enqueueIntent({ type: 'flag', field: 'starred', articleIds: [7], value: true });
	const db = await openReaderDb();
	await db.add('failed', {
		intent: { type: 'note', articleId: 8, note: 'refused note' },
		key: 'note:8',
		articleId: 8,
		code: 'INCORRECT_USAGE',
		reason: 'The server did not accept it',
		failedAt: 1,
		attempts: 1,
		account: accountOf(reader)
	});
	localStorage.setItem('reader.settings', '{"theme":"dark"}');
}

describe('signOut', () => {
	it('names the unsent and the failed changes before deleting anything', async () => {
		await signedInWithChanges();
		const { session } = await import('./session.svelte');
		const { signOut } = await import('./sign-out');
		await session.restore();
		const asked: string[] = [];
		const left = await signOut((message) => {
			asked.push(message);
			return false;
		});
		expect(left).toBe(false);
		expect(asked).toHaveLength(1);
		expect(asked[0]).toContain('2 changes');
		expect(asked[0]).toContain('Mark article 7 starred');
		expect(asked[0]).toContain('not accepted: The server did not accept it');
		expect(await loadSession()).toBeDefined();
		const db = await openReaderDb();
		expect(await db.count('failed')).toBe(1);
	});

	it('removes everything of the account: changes, session, images, local storage', async () => {
		await signedInWithChanges();
		const { session } = await import('./session.svelte');
		const { signOut } = await import('./sign-out');
		await session.restore();
		expect(await signOut(() => true)).toBe(true);
		const db = await openReaderDb();
		expect(await loadSession()).toBeUndefined();
		expect(await db.count('outbox')).toBe(0);
		expect(await db.count('failed')).toBe(0);
		expect(deletedCaches).toContain('images-v1');
		expect(localStorage.length).toBe(0);
	});

	it('every singleton holding the account forgets it, through the one signed-out event', async () => {
		await signedInWithChanges();
		const { session } = await import('./session.svelte');
		const { signOut } = await import('./sign-out');
		const { toasts } = await import('./toasts.svelte');
		const { selection } = await import('./selection.svelte');
		const { settings } = await import('./settings.svelte');
		const { syncStatus } = await import('$lib/sync/sync-status.svelte');
		await session.restore();
		toasts.show('Marked read');
		selection.toggle(7);
		syncStatus.noteSynced(1234);
		expect(settings.values.theme).toBe('dark');
		expect(await signOut(() => true)).toBe(true);
		expect({
			toasts: toasts.items.length,
			selected: selection.has(7),
			lastSyncAt: syncStatus.lastSyncAt,
			theme: settings.values.theme
		}).toEqual({ toasts: 0, selected: false, lastSyncAt: undefined, theme: 'system' });
	});
});

/** Notifications the app's registration shows; `closed` once closed. */
function shownNotices(count: number) {
	const notices = Array.from({ length: count }, () => ({ close: vi.fn() }));
	const registration = { getNotifications: () => Promise.resolve(notices) };
	return { notices, registration };
}

describe('a sign-out stops what runs for the account', () => {
	it.each([
		['replay', REPLAY_LOCK],
		['sync', SYNC_LOCK]
	])(
		'waits for the running %s (its lock) before it wipes; the sign-in is over at once',
		async (_, lock) => {
			await signedInWithChanges();
			installWebLocks();
			// A replay or a sync (this tab's, another's or the worker's) holds its lock.
			let release!: () => void;
			const held = new Promise<void>((resolve) => (release = resolve));
			let replaying!: () => void;
			const started = new Promise<void>((resolve) => (replaying = resolve));
			void navigator.locks.request(lock, () => {
				replaying();
				return held;
			});
			await started;
			const { session } = await import('./session.svelte');
			const { signOut } = await import('./sign-out');
			await session.restore();
			let done = false;
			const out = signOut(() => true).then(() => (done = true));
			// The kept session (the password with it) goes first: nothing logs in or sends again.
			await vi.waitFor(async () => expect(await loadSession()).toBeUndefined());
			const db = await openReaderDb();
			expect(await getStored(CACHE_OWNER, db)).toBeUndefined();
			// The wipe waits for it to end.
			expect({ done, outbox: await db.count('outbox') }).toEqual({ done: false, outbox: 1 });
			release();
			await out;
			expect(await db.count('outbox')).toBe(0);
		}
	);

	it('closes the notifications it showed', async () => {
		await signedInWithChanges();
		const { notices, registration } = shownNotices(2);
		vi.stubGlobal('navigator', { serviceWorker: { getRegistration: () => registration } });
		const { session } = await import('./session.svelte');
		const { signOut } = await import('./sign-out');
		await session.restore();
		await signOut(() => true);
		expect(notices.map((n) => n.close.mock.calls.length)).toEqual([1, 1]);
	});

	it('tells the other tabs before the wipe, once nothing of the sign-in is kept', async () => {
		await signedInWithChanges();
		const told: { message: unknown; session: unknown; outbox: number }[] = [];
		class Channel {
			onmessage: unknown = null;
			postMessage(message: unknown): void {
				// What a tab reloading at this message would find.
				void (async () => {
					const db = await openReaderDb();
					const [session, outbox] = await Promise.all([
						db.get('session', 'current'),
						db.count('outbox')
					]);
					told.push({ message, session, outbox });
				})();
			}
		}
		vi.stubGlobal('BroadcastChannel', Channel);
		vi.stubGlobal('location', { href: 'http://localhost/', reload: vi.fn() });
		const { session } = await import('./session.svelte');
		const { signOut } = await import('./sign-out');
		await session.restore();
		await signOut(() => true);
		await vi.waitFor(() => expect(told).toHaveLength(1));
		expect(told).toEqual([
			{ message: { type: 'account', account: undefined }, session: undefined, outbox: 1 }
		]);
	});
});
