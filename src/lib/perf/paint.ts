/**
 * The one way the app waits for the frame the reader's input changed to be painted (the
 * interactions' budget): an input's task does only what that frame shows (rows, counters, the article),
 * and the rest — the outbox write, a focus or scroll that forces a layout — runs after it, so the
 * paint is not held back by work nobody sees in it.
 *
 * A frame's callback and then a task: the task runs after that frame's paint. A page in the
 * background gets no frames, so a timer (100 ms, as SvelteKit's own link clicks wait) ends the wait
 * there too; without frames at all (tests, workers) a timer only.
 */
const HIDDEN_LIMIT_MS = 100;

export function afterNextPaint(): Promise<void> {
	return new Promise((resolve) => {
		const done = (): void => resolve();
		if (typeof requestAnimationFrame === 'function') {
			requestAnimationFrame(() => setTimeout(done, 0));
			setTimeout(done, HIDDEN_LIMIT_MS);
		} else {
			setTimeout(done, 0);
		}
	});
}

/** Runs `fn` after the next paint (see `afterNextPaint`). */
export function runAfterNextPaint(fn: () => void): void {
	void afterNextPaint().then(fn);
}
