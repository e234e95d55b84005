/**
 * One sync as the page and the worker run it: the engine, then a word on the sync channel so
 * every open tab refreshes its screen and its "Updated" time, whoever synced.
 */
import { syncNow, type SyncOptions, type SyncOutcome } from './engine';
import { SYNC_CHANNEL, type SyncMessage } from './contract';

/** This tab's (or the worker's) name on the channel. */
const SOURCE = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

function announceSync(message: Omit<SyncMessage, 'source'>): void {
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

export async function runSync(options: SyncOptions): Promise<SyncOutcome> {
	const outcome = await syncNow(options);
	if (outcome.status === 'synced')
		announceSync({ type: 'sync-done', at: outcome.at, changes: outcome.changes });
	else if (outcome.status === 'unchanged')
		announceSync({
			type: 'sync-done',
			at: outcome.at,
			changes: { articleIds: [], newArticles: false }
		});
	return outcome;
}
