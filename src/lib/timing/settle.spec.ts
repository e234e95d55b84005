import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { settleTimer } from './settle';

describe('the trailing timer', () => {
	beforeEach(() => {
		vi.useFakeTimers();
	});
	afterEach(() => {
		vi.useRealTimers();
	});

	it('runs once changes stop for a moment, or a few seconds into changes that never stop', () => {
		const settled = vi.fn();
		const timer = settleTimer(settled, { quietMs: 1500, maxWaitMs: 5000 });
		timer.changed();
		vi.advanceTimersByTime(1000);
		timer.changed();
		vi.advanceTimersByTime(1499);
		expect(settled).not.toHaveBeenCalled();
		vi.advanceTimersByTime(1);
		expect(settled).toHaveBeenCalledTimes(1);

		// A status line that changes every second (the start snapshot): copied 5 s after its first
		// change, then again.
		for (let second = 0; second < 12; second++) {
			timer.changed();
			vi.advanceTimersByTime(1000);
		}
		expect(settled).toHaveBeenCalledTimes(3);
	});

	it('without a longest wait, waits for the changes to stop however long they go on', () => {
		const settled = vi.fn();
		const timer = settleTimer(settled, { quietMs: 1000 });
		for (let i = 0; i < 30; i++) {
			timer.changed();
			vi.advanceTimersByTime(900);
		}
		expect(settled).not.toHaveBeenCalled();
		vi.advanceTimersByTime(100);
		expect(settled).toHaveBeenCalledTimes(1);
		vi.advanceTimersByTime(10_000);
		expect(settled).toHaveBeenCalledTimes(1);
	});

	it('takes a delay of its own for one change (a retry that backs off)', () => {
		const settled = vi.fn();
		const timer = settleTimer(settled, { quietMs: 1000 });
		timer.changed(20_000);
		vi.advanceTimersByTime(19_999);
		expect(settled).not.toHaveBeenCalled();
		// A later change replaces the wait, shorter or longer.
		timer.changed(5);
		vi.advanceTimersByTime(5);
		expect(settled).toHaveBeenCalledTimes(1);
	});

	it('forgets a due run when cancelled', () => {
		const settled = vi.fn();
		const timer = settleTimer(settled, { quietMs: 1000, maxWaitMs: 3000 });
		timer.changed();
		timer.cancel();
		vi.advanceTimersByTime(5000);
		expect(settled).not.toHaveBeenCalled();
		timer.changed();
		vi.advanceTimersByTime(1000);
		expect(settled).toHaveBeenCalledTimes(1);

		// A cancel starts the longest wait afresh: the next burst is measured from its own start.
		timer.changed();
		vi.advanceTimersByTime(900);
		timer.cancel();
		vi.advanceTimersByTime(2500);
		for (let i = 0; i < 4; i++) {
			timer.changed();
			vi.advanceTimersByTime(900);
		}
		expect(settled).toHaveBeenCalledTimes(2);
	});
});
