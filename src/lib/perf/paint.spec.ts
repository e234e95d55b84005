/** The one "after the next paint" wait (perf/paint.ts). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterNextPaint, runAfterNextPaint } from './paint';

afterEach(() => {
	vi.useRealTimers();
	vi.unstubAllGlobals();
});

describe('afterNextPaint', () => {
	it('runs in a task after the next frame, not in the frame itself', async () => {
		vi.useFakeTimers();
		const frames: FrameRequestCallback[] = [];
		vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
		const ran = vi.fn();
		runAfterNextPaint(ran);
		await vi.advanceTimersByTimeAsync(0);
		expect(ran).not.toHaveBeenCalled();
		frames.shift()?.(0);
		expect(ran).not.toHaveBeenCalled();
		await vi.advanceTimersByTimeAsync(0);
		expect(ran).toHaveBeenCalledTimes(1);
		// The background limit's timer later resolves nothing twice.
		await vi.advanceTimersByTimeAsync(200);
		expect(ran).toHaveBeenCalledTimes(1);
	});

	it('ends within its limit on a page that gets no frames (a tab in the background)', async () => {
		vi.useFakeTimers();
		vi.stubGlobal('requestAnimationFrame', () => 0);
		const ran = vi.fn();
		runAfterNextPaint(ran);
		await vi.advanceTimersByTimeAsync(99);
		expect(ran).not.toHaveBeenCalled();
		await vi.advanceTimersByTimeAsync(1);
		expect(ran).toHaveBeenCalledTimes(1);
	});

	it('without frames at all (a worker, tests), the next task', async () => {
		vi.stubGlobal('requestAnimationFrame', undefined);
		let done = false;
		const wait = afterNextPaint().then(() => (done = true));
		expect(done).toBe(false);
		await wait;
		expect(done).toBe(true);
	});
});
