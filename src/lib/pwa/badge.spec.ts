import { describe, expect, it, vi } from 'vitest';
import { setAppBadge, type BadgeNavigator } from './badge';

function fakeNavigator(overrides: Partial<BadgeNavigator> = {}) {
	const setAppBadge = vi.fn<(contents?: number) => Promise<void>>(() => Promise.resolve());
	const clearAppBadge = vi.fn<() => Promise<void>>(() => Promise.resolve());
	return { setAppBadge, clearAppBadge, ...overrides };
}

describe('setAppBadge', () => {
	it('shows a positive count', async () => {
		const nav = fakeNavigator();
		await expect(setAppBadge(12, nav)).resolves.toBe(true);
		expect(nav.setAppBadge).toHaveBeenCalledWith(12);
		expect(nav.clearAppBadge).not.toHaveBeenCalled();
	});

	it('clears the badge at zero', async () => {
		const nav = fakeNavigator();
		await expect(setAppBadge(0, nav)).resolves.toBe(true);
		expect(nav.clearAppBadge).toHaveBeenCalledOnce();
		expect(nav.setAppBadge).not.toHaveBeenCalled();
	});

	it.each([-3, Number.NaN, Number.POSITIVE_INFINITY, 0.4])('clears for %s', async (count) => {
		const nav = fakeNavigator();
		await setAppBadge(count, nav);
		expect(nav.clearAppBadge).toHaveBeenCalledOnce();
		expect(nav.setAppBadge).not.toHaveBeenCalled();
	});

	it('rounds a fractional count down', async () => {
		const nav = fakeNavigator();
		await setAppBadge(7.9, nav);
		expect(nav.setAppBadge).toHaveBeenCalledWith(7);
	});

	it('is a no-op without the Badging API', async () => {
		await expect(setAppBadge(5, {})).resolves.toBe(false);
		await expect(setAppBadge(0, {})).resolves.toBe(false);
		await expect(setAppBadge(5, undefined)).resolves.toBe(false);
	});

	it('clears with setAppBadge(0) when clearAppBadge is missing', async () => {
		const nav = fakeNavigator({ clearAppBadge: undefined });
		await expect(setAppBadge(0, nav)).resolves.toBe(true);
		expect(nav.setAppBadge).toHaveBeenCalledWith(0);
	});

	it('swallows a refusal (e.g. NotAllowedError when not installed)', async () => {
		const nav = fakeNavigator({
			setAppBadge: () => Promise.reject(new DOMException('no', 'NotAllowedError'))
		});
		await expect(setAppBadge(3, nav)).resolves.toBe(false);
	});

	it('calls the API as a method of the navigator', async () => {
		const calls: unknown[] = [];
		const nav = {
			count: 0,
			setAppBadge(this: { count: number }, contents?: number) {
				this.count = contents ?? 0;
				calls.push(this);
				return Promise.resolve();
			}
		};
		await setAppBadge(4, nav);
		expect(nav.count).toBe(4);
		expect(calls).toEqual([nav]);
	});
});
