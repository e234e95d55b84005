/**
 * The moment of a race made certain (issue 22): from the next import on, `withQueuedChanges`
 * (the overlay of the reader's queued changes on a read) runs the function given to `meanwhile`
 * once, right after it has read them and before its caller shows the result: a reader's change
 * made then is in neither the read nor the overlay. `vi.doUnmock('$lib/outbox/outbox')` ends it.
 */
import { vi } from 'vitest';

export function afterQueuedChangesRead(): { meanwhile: (run: () => void) => void } {
	let next: (() => void) | undefined;
	vi.doMock('$lib/outbox/outbox', async (original) => {
		const real = await original<typeof import('$lib/outbox/outbox')>();
		return {
			...real,
			withQueuedChanges: async (...args: Parameters<typeof real.withQueuedChanges>) => {
				const shown = await real.withQueuedChanges(...args);
				next?.();
				next = undefined;
				return shown;
			}
		};
	});
	return { meanwhile: (run) => void (next = run) };
}
