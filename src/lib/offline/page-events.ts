/**
 * Window and document events, typed structurally so modules using them also type-check under
 * the service worker's tsconfig (webworker lib, no DOM), which follows every import from src/lib.
 */
interface EventSource {
	addEventListener(type: string, listener: () => void): void;
	removeEventListener(type: string, listener: () => void): void;
}

interface PageGlobals extends EventSource {
	document?: EventSource & { visibilityState: string };
}

const page = globalThis as unknown as PageGlobals;

/** True in a page (a window with a document), false in workers and during server rendering. */
export function inPage(): boolean {
	return typeof page.document !== 'undefined';
}

/** Listens on the window; returns the function that stops listening. */
export function onWindow(type: 'online' | 'offline', listener: () => void): () => void {
	page.addEventListener(type, listener);
	return () => page.removeEventListener(type, listener);
}

/** Calls `listener` whenever the tab becomes visible again. */
export function onVisible(listener: () => void): () => void {
	const doc = page.document;
	if (!doc) return () => undefined;
	const handler = (): void => {
		if (doc.visibilityState === 'visible') listener();
	};
	doc.addEventListener('visibilitychange', handler);
	return () => doc.removeEventListener('visibilitychange', handler);
}
