/**
 * Messages from pages. The update flow is the page's decision: a new version waits until the reader
 * accepts "New version available — Reload", which sends SKIP_WAITING (workbox-window's
 * messageSkipWaiting()).
 */
import { version } from '$service-worker';

const sw = self as unknown as ServiceWorkerGlobalScope;

export type PageMessage = { type: 'SKIP_WAITING' } | { type: 'GET_VERSION' };

function isPageMessage(data: unknown): data is PageMessage {
	if (typeof data !== 'object' || data === null) return false;
	const type = (data as { type?: unknown }).type;
	return type === 'SKIP_WAITING' || type === 'GET_VERSION';
}

export function handleMessage(event: ExtendableMessageEvent): void {
	const data: unknown = event.data;
	if (!isPageMessage(data)) return;
	switch (data.type) {
		case 'SKIP_WAITING':
			event.waitUntil(sw.skipWaiting());
			break;
		case 'GET_VERSION':
			// workbox-window's messageSW() waits for the answer on the transferred port.
			event.ports[0]?.postMessage({ version });
			break;
	}
}
