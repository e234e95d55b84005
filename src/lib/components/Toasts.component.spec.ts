/** The toasts (Toasts.svelte) in jsdom: errors in the alert region until dismissed, Undo runs. */
import { flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toasts } from '$lib/state/toasts.svelte';
import Toasts from './Toasts.svelte';
import { freshTarget, show } from '$support/mounted';

let target: HTMLElement;

beforeEach(() => {
	vi.useFakeTimers();
	toasts.reset();
	target = freshTarget();
	show(Toasts, target, {});
});
afterEach(() => {
	vi.useRealTimers();
});

const alertRegion = (): Element | null => target.querySelector('[role="alert"]');
const statusRegion = (): Element | null => target.querySelector('[role="status"]');

describe('Toasts', () => {
	it('keeps an error in the alert region until Dismiss, past the info toasts’ time', () => {
		toasts.show('The server refused the change.', 'error');
		flushSync();
		expect(alertRegion()?.textContent).toContain('The server refused the change.');
		vi.advanceTimersByTime(60_000);
		flushSync();
		expect(alertRegion()?.textContent).toContain('The server refused the change.');
		alertRegion()?.querySelector('button')?.click();
		flushSync();
		expect(alertRegion()?.textContent?.trim()).toBe('');
	});

	it('shows an info toast in the status region and takes it away after its time', () => {
		toasts.show('Subscribed.', 'info', { ms: 1_000 });
		flushSync();
		expect(statusRegion()?.textContent).toContain('Subscribed.');
		expect(alertRegion()?.textContent?.trim()).toBe('');
		vi.advanceTimersByTime(1_000);
		flushSync();
		expect(statusRegion()?.textContent).not.toContain('Subscribed.');
	});

	it('runs a toast’s action from its button (Undo), with its shortcut announced', () => {
		const run = vi.fn();
		toasts.show('Marked 3 read.', 'info', { action: { label: 'Undo', run }, ms: Infinity });
		flushSync();
		const button = statusRegion()?.querySelector('button');
		expect(button?.textContent).toBe('Undo');
		expect(button?.getAttribute('aria-keyshortcuts')).toBe('z Control+Z');
		button?.click();
		expect(run).toHaveBeenCalledTimes(1);
	});
});
