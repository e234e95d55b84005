/** The replay's last outcome, kept in IndexedDB so the page shows what the worker found too. */
import { openReaderDb } from '$lib/db/open';
import { REPLAY_STATUS_KEY } from './contract';

export interface ReplayStatus {
	/** The session ended and could not be renewed: the reader must sign in; nothing is lost. */
	signInNeeded: boolean;
	/** Why the last replay stopped, for the reader (offline, server error, access refused). */
	lastError?: string;
	lastAttemptAt?: number;
	/** When the server last confirmed a change. */
	lastSentAt?: number;
}

export async function loadReplayStatus(): Promise<ReplayStatus> {
	const db = await openReaderDb();
	const value = (await db.get('settings', REPLAY_STATUS_KEY)) as ReplayStatus | undefined;
	return value ?? { signInNeeded: false };
}

export async function updateReplayStatus(patch: Partial<ReplayStatus>): Promise<void> {
	const db = await openReaderDb();
	const tx = db.transaction('settings', 'readwrite');
	// A failed write (full quota) rejects here, through the awaits below, not as an unhandled `done`.
	tx.done.catch(() => undefined);
	const current = ((await tx.store.get(REPLAY_STATUS_KEY)) as ReplayStatus | undefined) ?? {
		signInNeeded: false
	};
	const next: ReplayStatus = { ...current, ...patch };
	if ('lastError' in patch && patch.lastError === undefined) delete next.lastError;
	await tx.store.put(next, REPLAY_STATUS_KEY);
	await tx.done;
}
