/** The replay's last outcome, kept in IndexedDB so the page shows what the worker found too. */
import { getStored, isRecord, readIn, storedKey, writeIn } from '$lib/db/kv';
import { writeStores } from '$lib/db/stores';
import { REPLAY_STATUS_KEY } from './outbox-contract';

export interface ReplayStatus {
	/** The session ended and could not be renewed: the reader must sign in; nothing is lost. */
	signInNeeded: boolean;
	/** Why the last replay stopped, for the reader (offline, server error, access refused). */
	lastError?: string;
	lastAttemptAt?: number;
	/** When the server last confirmed a change. */
	lastSentAt?: number;
}

/** The last outcome (its name is in db/names.ts: a switch of account wipes it). */
export const REPLAY_STATUS = storedKey<ReplayStatus>({
	store: 'settings',
	name: REPLAY_STATUS_KEY,
	owner: 'outbox/status.ts',
	parse: (raw) =>
		typeof isRecord(raw)?.signInNeeded === 'boolean' ? (raw as ReplayStatus) : undefined,
	fallback: () => ({ signInNeeded: false })
});

export async function loadReplayStatus(): Promise<ReplayStatus> {
	return getStored(REPLAY_STATUS);
}

export async function updateReplayStatus(patch: Partial<ReplayStatus>): Promise<void> {
	await writeStores(['settings'], async ({ settings }) => {
		const current = await readIn(settings, REPLAY_STATUS);
		const next: ReplayStatus = { ...current, ...patch };
		if ('lastError' in patch && patch.lastError === undefined) delete next.lastError;
		await writeIn(settings, REPLAY_STATUS, next);
	});
}
