/**
 * Where the reader left each enclosure, so a podcast resumes after a reload, a restart or offline.
 * Kept in IndexedDB's `media` store (v4) by the enclosure's URL alone: the same file is the same
 * episode whichever feed or article shows it. The store belongs to the cache's account like every
 * cache store (db/device.ts), so sign-out and another account's sign-in empty it.
 */
import { mayWriteCache } from '$lib/db/account';
import { CACHE_OWNER } from '$lib/db/keys';
import { readIn } from '$lib/db/kv';
import { writeStores } from '$lib/db/stores';
import { storedMediaPosition } from '$lib/db/later-reads';

export interface MediaPosition {
	/** Seconds into the file. */
	position: number;
	/** Seconds, when the browser knew it. */
	duration: number | undefined;
	/** Played to the end: the next play starts at the beginning. */
	finished: boolean;
	savedAt: number;
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** The store holds `unknown` (older builds, other tabs): keep only a well-formed record. */
export function parseMediaPosition(value: unknown): MediaPosition | undefined {
	if (!value || typeof value !== 'object') return undefined;
	const record = value as Record<string, unknown>;
	if (!finite(record.position)) return undefined;
	return {
		position: record.position,
		duration: finite(record.duration) ? record.duration : undefined,
		finished: record.finished === true,
		savedAt: finite(record.savedAt) ? record.savedAt : 0
	};
}

/** Where playback of a file of `duration` seconds should start, given what was saved. */
export function resumeAt(saved: MediaPosition | undefined, duration: number): number {
	if (!saved || saved.finished) return 0;
	if (!Number.isFinite(duration) || duration <= 0) return saved.position;
	// At (or past) the end, as when the file changed: start over rather than end at once.
	return saved.position < duration ? saved.position : 0;
}

export async function loadPosition(url: string): Promise<MediaPosition | undefined> {
	try {
		return parseMediaPosition(await storedMediaPosition(url));
	} catch {
		// No IndexedDB (private mode in old engines): the player still plays, from the start.
		return undefined;
	}
}

export async function savePosition(
	url: string,
	value: Omit<MediaPosition, 'savedAt'>
): Promise<void> {
	try {
		await writeStores(['media', 'settings'], async (stores) => {
			// A tab left open for an account that has since signed out must not refill the new one's store.
			if (mayWriteCache(await readIn(stores.settings, CACHE_OWNER))) {
				await stores.media.put({ ...value, savedAt: Date.now() }, url);
			}
		});
	} catch {
		// Storage full or gone: losing a position is better than interrupting playback.
	}
}
