/**
 * "The outbox or the failed list changed", said to this context, other tabs and the worker. Apart
 * from outbox.ts so the modules that change the outbox (outbox.ts, hold.ts, replay.ts) all announce
 * through one place without importing one another.
 */
import { OUTBOX_CHANNEL, type OutboxChangedMessage } from './outbox-contract';

const localListeners = new Set<() => void>();

/** Outbox changes made in this page or worker (a BroadcastChannel never echoes to its sender). */
export function onOutboxChange(listener: () => void): () => void {
	localListeners.add(listener);
	return () => localListeners.delete(listener);
}

/** Tells this context, other tabs and the worker that the outbox or the failed list changed. */
export function announceOutboxChange(): void {
	for (const listener of localListeners) listener();
	if (typeof BroadcastChannel === 'undefined') return;
	const channel = new BroadcastChannel(OUTBOX_CHANNEL);
	const message: OutboxChangedMessage = { type: 'outbox-changed' };
	channel.postMessage(message);
	channel.close();
}

/**
 * Calls `listener` whenever the outbox or the failed list changes, here, in another tab or in the
 * worker; returns the function that stops listening.
 */
export function watchOutbox(listener: () => void): () => void {
	const channel =
		typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(OUTBOX_CHANNEL);
	if (channel) channel.onmessage = () => listener();
	const stopLocal = onOutboxChange(listener);
	return () => {
		channel?.close();
		stopLocal();
	};
}
