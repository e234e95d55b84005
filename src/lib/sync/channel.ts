/**
 * The sync channel: a finished sync says so, and every tab (and the worker) hears whoever synced.
 * Apart from the engine, so a page can listen without loading it (sync/triggers.ts loads the
 * engine only when it first syncs, after the first screen).
 */
import { SYNC_CHANNEL, type SyncMessage } from './contract';

/** This tab's (or the worker's) name on the channel. */
const SOURCE = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

export function announceSync(message: Omit<SyncMessage, 'source'>): void {
	if (typeof BroadcastChannel === 'undefined') return;
	const channel = new BroadcastChannel(SYNC_CHANNEL);
	channel.postMessage({ ...message, source: SOURCE });
	channel.close();
}

/** Listens to syncs of other tabs and the worker; returns the function that stops it. */
export function onSyncMessage(listener: (message: SyncMessage) => void): () => void {
	if (typeof BroadcastChannel === 'undefined') return () => undefined;
	const channel = new BroadcastChannel(SYNC_CHANNEL);
	channel.onmessage = (event: MessageEvent<SyncMessage>) => {
		if (event.data.source !== SOURCE) listener(event.data);
	};
	return () => channel.close();
}
