/**
 * Test helper (used only by *.spec.ts): request timeouts without waiting for them. Timers at or
 * above a threshold (the transport's 20 s request timeout) are real but can be fired at once, so
 * a test can make one request time out (the transport then reports TIMEOUT, as in a browser)
 * while every other timer runs as usual.
 */
const pending = new Map<unknown, () => void>();
let last: unknown;
let installed = false;

export function installTimeoutControl(threshold: number): void {
	if (installed) return;
	installed = true;
	const realSet = globalThis.setTimeout;
	const realClear = globalThis.clearTimeout;
	const set = (handler: () => void, ms?: number, ...args: unknown[]): unknown => {
		if ((ms ?? 0) < threshold) return realSet(handler, ms, ...args);
		const handle: unknown = realSet(() => {
			pending.delete(handle);
			handler();
		}, ms);
		pending.set(handle, handler);
		last = handle;
		return handle;
	};
	const clear = (handle: unknown): void => {
		pending.delete(handle);
		realClear(handle as Parameters<typeof clearTimeout>[0]);
	};
	globalThis.setTimeout = set as unknown as typeof setTimeout;
	globalThis.clearTimeout = clear;
}

/**
 * The newest long timer still pending, as a function that fires it now. Called synchronously
 * where a request starts, it is that request's timeout.
 */
export function newestLongTimer(): (() => void) | undefined {
	const handle = last;
	const handler = pending.get(handle);
	if (!handler) return undefined;
	return () => {
		if (!pending.delete(handle)) return;
		globalThis.clearTimeout(handle as Parameters<typeof clearTimeout>[0]);
		handler();
	};
}
