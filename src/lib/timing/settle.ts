/**
 * The one trailing timer of the app: work that waits for a burst of events to stop (the counters
 * read once the outbox has stayed empty, the search index mended after writes, the resume place
 * written once scrolling stops, the rows scrolled past marked once the list rests, the start
 * snapshot copied once the screen is quiet, the replay retried after a failure).
 *
 * `settled` runs once, `quietMs` after the last `changed()` — or `maxWaitMs` after the first
 * change since it last ran, when changes never stop. `cancel()` forgets a run that is due (signed
 * out, the page left).
 */
export interface SettleTimer {
	/** Something changed: `settled` runs `quietMs` (or `ms`, when given) after the last change. */
	changed(ms?: number): void;
	/** The run that is due is forgotten. */
	cancel(): void;
}

export function settleTimer(
	settled: () => void,
	{ quietMs, maxWaitMs }: { quietMs: number; maxWaitMs?: number }
): SettleTimer {
	let timer: ReturnType<typeof setTimeout> | undefined;
	let firstChange: number | undefined;
	const cancel = (): void => {
		if (timer !== undefined) clearTimeout(timer);
		timer = undefined;
		firstChange = undefined;
	};
	const fire = (): void => {
		cancel();
		settled();
	};
	return {
		changed(ms = quietMs) {
			const now = Date.now();
			firstChange ??= now;
			const wait = maxWaitMs === undefined ? ms : Math.min(ms, firstChange + maxWaitMs - now);
			if (timer !== undefined) clearTimeout(timer);
			timer = setTimeout(fire, Math.max(0, wait));
		},
		cancel
	};
}
