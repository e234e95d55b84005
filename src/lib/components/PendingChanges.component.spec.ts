/**
 * The pending and failed changes panel (PendingChanges.svelte), mounted in jsdom over
 * fake-indexeddb: what it shows of the outbox and the failed list, and its Discard and Retry.
 */
import { flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openReaderDb } from '$lib/db/open';
import type { FailedItem } from '$lib/db/schema';
import { offlineStatus } from '$lib/offline/offline-status.svelte';
import { failedItems, pendingItems } from '$lib/outbox/outbox';
import { enqueueIntent } from '$lib/outbox/enqueue';
import PendingChanges from './PendingChanges.svelte';
import { freshTarget, show } from '$support/mounted';

let stopStatus: () => void = () => undefined;

beforeEach(() => {
	offlineStatus.reset();
});
afterEach(() => {
	stopStatus();
});

/**
 * Mounts the panel, with the offline status following the outbox as the app's layout has it, and
 * waits for its first read of the outbox to be on screen.
 */
async function showPanel(): Promise<HTMLElement> {
	stopStatus = offlineStatus.start();
	const target = freshTarget();
	show(PendingChanges, target, { showStorage: false });
	await offlineStatus.refresh();
	flushSync();
	return target;
}

function refused(patch: Partial<FailedItem> = {}): FailedItem {
	return {
		intent: { type: 'flag', field: 'starred', articleIds: [42], value: true },
		key: 'flag:starred:42',
		articleId: 42,
		code: 'INCORRECT_USAGE',
		reason: 'The server refused this change.',
		failedAt: 1,
		attempts: 1,
		...patch
	};
}

const buttonNamed = (root: HTMLElement, name: string): HTMLButtonElement => {
	const button = [...root.querySelectorAll('button')].find((b) => b.textContent?.trim() === name);
	if (!button) throw new Error(`no button "${name}"`);
	return button;
};

describe('PendingChanges', () => {
	it('says every change is saved when the outbox and the failed list are empty', async () => {
		const panel = await showPanel();
		expect(panel.querySelector('[data-testid="pending-none"]')?.textContent).toContain(
			'All your changes are saved'
		);
		expect(panel.querySelector('ul.failed')).toBeNull();
	});

	it('counts the waiting changes and lists each one', async () => {
		await enqueueIntent({ type: 'flag', field: 'starred', articleIds: [1], value: true });
		await enqueueIntent({ type: 'flag', field: 'unread', articleIds: [2, 3], value: false });
		const panel = await showPanel();
		expect(panel.querySelector('[data-testid="pending-total"]')?.textContent).toBe('3');
		expect(panel.querySelectorAll('ul.pending li')).toHaveLength(3);
		expect(panel.querySelector('[data-testid="pending-none"]')).toBeNull();
	});

	it('Discard drops a refused change from the list and from the device', async () => {
		await (await openReaderDb()).add('failed', refused());
		const panel = await showPanel();
		const row = panel.querySelector('ul.failed li');
		expect(row?.textContent).toContain('The server refused this change.');
		buttonNamed(panel, 'Discard').click();
		await vi.waitFor(() => {
			flushSync();
			expect(panel.querySelector('ul.failed')).toBeNull();
		});
		expect(await failedItems()).toEqual([]);
	});

	it('Retry puts a refused change back in the outbox', async () => {
		await (await openReaderDb()).add('failed', refused());
		const panel = await showPanel();
		buttonNamed(panel, 'Retry').click();
		await vi.waitFor(async () => {
			expect((await pendingItems()).map((item) => item.key)).toEqual(['flag:starred:42']);
		});
		await vi.waitFor(() => {
			flushSync();
			expect(panel.querySelector('[data-testid="pending-total"]')?.textContent).toBe('1');
		});
		expect(panel.querySelector('ul.failed')).toBeNull();
	});
});
