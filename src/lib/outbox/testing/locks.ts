/**
 * Test helper (used only by *.spec.ts): an in-process stand-in for the Web Locks API
 * (`navigator.locks.request`, exclusive mode), so page, tab and worker replays in one test are
 * serialised as browsers serialise them. Node has no navigator.locks.
 */
type Work = (lock: { name: string }) => unknown;

export function webLocks(): { request(name: string, ...rest: unknown[]): Promise<unknown> } {
	const tails = new Map<string, Promise<unknown>>();
	return {
		request(name: string, ...rest: unknown[]): Promise<unknown> {
			const work = rest[rest.length - 1] as Work;
			const before = tails.get(name) ?? Promise.resolve();
			const result = before.then(() => work({ name }));
			const tail = result.then(
				() => undefined,
				() => undefined
			);
			tails.set(name, tail);
			void tail.then(() => {
				if (tails.get(name) === tail) tails.delete(name);
			});
			return result;
		}
	};
}

/** Installs the stand-in as `navigator.locks` (creating `navigator` in Node). */
export function installWebLocks(): void {
	const nav = ((globalThis as { navigator?: object }).navigator ??= {}) as Record<string, unknown>;
	Object.defineProperty(nav, 'locks', { value: webLocks(), configurable: true });
}
