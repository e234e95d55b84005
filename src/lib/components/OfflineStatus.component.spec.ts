/**
 * The app bar's offline indicator (OfflineStatus.svelte) in jsdom: the connection, the time of the
 * last fresh data (kept current by its own clock), a sync under way, and the waiting changes.
 */
import { flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { m } from '$lib/i18n';
import { offlineStatus, PENDING_SHOWN_AFTER_MS } from '$lib/offline/offline-status.svelte';
import { enqueueIntent } from '$lib/outbox/enqueue';
import { syncStatus } from '$lib/sync/sync-status.svelte';
import OfflineStatus from './OfflineStatus.svelte';
import { freshTarget, show as showComponent } from '$support/mounted';

let stopStatus: () => void = () => undefined;
let target: HTMLElement;

beforeEach(() => {
	offlineStatus.reset();
	syncStatus.reset();
	target = freshTarget();
});
afterEach(() => {
	stopStatus();
	stopStatus = () => undefined;
	vi.useRealTimers();
});

function show(): void {
	showComponent(OfflineStatus, target, {});
}

const byTestId = (id: string): Element | null => target.querySelector(`[data-testid="${id}"]`);

describe('OfflineStatus', () => {
	it('says "never" before any fresh data, and how long ago after a sync, as time goes on', () => {
		vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
		vi.setSystemTime(new Date('2026-11-26T09:00:00Z'));
		show();
		expect(byTestId('last-updated')?.textContent?.trim()).toBe(
			m.status_updated({ when: m.status_never() })
		);
		syncStatus.succeeded(Date.now());
		flushSync();
		expect(byTestId('last-updated')?.textContent?.trim()).toBe(
			m.status_updated({ when: m.status_just_now() })
		);
		vi.advanceTimersByTime(30 * 60_000);
		flushSync();
		expect(byTestId('last-updated')?.textContent?.trim()).toBe(
			m.status_updated({ when: m.status_minutes_ago({ minutes: 30 }) })
		);
		vi.advanceTimersByTime(3 * 60 * 60_000);
		flushSync();
		expect(byTestId('last-updated')?.textContent?.trim()).toBe(
			m.status_updated({ when: m.status_hours_ago({ hours: 4 }) })
		);
	});

	it('shows "offline" while the browser is offline, and not once it is back', () => {
		stopStatus = offlineStatus.start();
		show();
		expect(byTestId('offline-indicator')).toBeNull();
		window.dispatchEvent(new Event('offline'));
		flushSync();
		expect(byTestId('offline-indicator')?.textContent).toBe(m.status_offline());
		window.dispatchEvent(new Event('online'));
		flushSync();
		expect(byTestId('offline-indicator')).toBeNull();
	});

	it('shows a sync under way without announcing it', () => {
		show();
		expect(byTestId('sync-running')).toBeNull();
		syncStatus.begin();
		flushSync();
		expect(byTestId('sync-running')?.getAttribute('aria-hidden')).toBe('true');
		syncStatus.failed('Could not reach the server.');
		flushSync();
		expect(byTestId('sync-running')).toBeNull();
	});

	it('counts the changes waiting in the outbox once they have waited a moment (online)', async () => {
		stopStatus = offlineStatus.start();
		show();
		expect(byTestId('pending-count')).toBeNull();
		vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
		await enqueueIntent({ type: 'flag', field: 'starred', articleIds: [1, 2], value: true });
		// The outbox's count arrives by I/O (not a timer: those are the test's here).
		for (let i = 0; i < 200 && offlineStatus.pending !== 2; i++) {
			await new Promise((resolve) => setImmediate(resolve));
		}
		expect(offlineStatus.pending).toBe(2);
		flushSync();
		// A change sent at once never flashes a badge (nor has one announced).
		vi.advanceTimersByTime(PENDING_SHOWN_AFTER_MS - 1);
		flushSync();
		expect(byTestId('pending-count')).toBeNull();
		vi.advanceTimersByTime(1);
		flushSync();
		expect(byTestId('pending-count')?.textContent?.trim()).toBe(m.status_pending({ count: 2 }));
	});

	it('counts them at once when offline', async () => {
		stopStatus = offlineStatus.start();
		show();
		window.dispatchEvent(new Event('offline'));
		await enqueueIntent({ type: 'flag', field: 'starred', articleIds: [1], value: true });
		await vi.waitFor(() => {
			flushSync();
			expect(byTestId('pending-count')?.textContent?.trim()).toBe(m.status_pending({ count: 1 }));
		});
	});
});
