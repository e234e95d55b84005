/**
 * The sync's clocks and the worker's part of its triggers: how often the page syncs while it stays
 * visible, and the Background Sync and Periodic Background Sync registrations. Where the browser
 * offers Periodic Background Sync and the installed app has its permission, the worker also syncs
 * while no tab is open; a sync that failed for want of a network asks for a Background Sync, which
 * the worker runs once the connection is back. Firefox and WebKit have neither: there the page's
 * own triggers (state/sync-triggers.ts, started by the app's lifecycle) are all, on purpose.
 */
import { PERIODIC_MIN_INTERVAL_MS, PERIODIC_SYNC_TAG, SYNC_INTERVAL_KEY } from './contract';

/** Between syncs while the tab stays visible. */
export const SYNC_EVERY_MS = 5 * 60_000;

/** The interval, shortened for tests through localStorage (no build needed). */
export function syncInterval(): number {
	try {
		const raw = Number(globalThis.localStorage?.getItem(SYNC_INTERVAL_KEY));
		return Number.isFinite(raw) && raw >= 200 ? raw : SYNC_EVERY_MS;
	} catch {
		return SYNC_EVERY_MS;
	}
}

interface SyncRegistration {
	sync?: { register(tag: string): Promise<void> };
	periodicSync?: {
		register(tag: string, options: { minInterval: number }): Promise<void>;
	};
}

async function registration(): Promise<SyncRegistration | undefined> {
	if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return undefined;
	return (await navigator.serviceWorker.getRegistration()) as unknown as
		SyncRegistration | undefined;
}

/** Asks the worker for a Background Sync of `tag`; quietly nothing where it is missing. */
export async function registerSync(tag: string): Promise<void> {
	try {
		await (await registration())?.sync?.register(tag);
	} catch {
		// Not offered or not allowed: the page's own triggers remain.
	}
}

/**
 * Periodic Background Sync: Chromium offers it to installed apps only, behind a permission it
 * grants by its own rules (site engagement). Anything short of "granted" leaves the page's triggers.
 */
export async function registerPeriodicSync(): Promise<boolean> {
	try {
		const periodic = (await registration())?.periodicSync;
		if (!periodic) return false;
		const state = await navigator.permissions.query({
			name: 'periodic-background-sync' as PermissionName
		});
		if (state.state !== 'granted') return false;
		await periodic.register(PERIODIC_SYNC_TAG, { minInterval: PERIODIC_MIN_INTERVAL_MS });
		return true;
	} catch {
		return false;
	}
}
