/**
 * "Kept on the server" (issue 60): the sync's step that reads the reader's settings kept by the
 * Reader plugin (package/shared-settings.php), at start and at each sync, into the device's copy
 * (one key per account in the `sync` store). The page applies that copy to its settings, swipes
 * and muted words (state/shared-settings.svelte.ts) once the sync is announced.
 *
 * A change the reader made on this device and that is still in the outbox stays on top of what
 * the server said (merged by the same rule, the later change wins), so a read before the outbox
 * is sent never puts an older value back on the screen. Without the plugin (not installed, or not
 * ticked for this account), the copy says so and the settings stay the device's own. Any other
 * failure (offline, the server down) keeps the copy as it was: it is not the plugin's absence.
 * Sign-out wipes the copy with the rest of the account's data (db/device.ts), never the server's.
 */
import { parseSharedSettings, pluginAbsent, type SharedItems } from '$lib/api/shared-settings-op';
import type { OpOptions, TtrssClient } from '$lib/api/client';
import { getStored, isRecord, putStored, storedKeyFamily } from '$lib/db/kv';
import { outboxItems } from '$lib/db/stores';
import { mergeItem, mergeItems } from './shared-merge';

export interface SharedCopy {
	/** Whether the plugin keeps this account's settings (undefined: not asked yet). */
	on: boolean | undefined;
	/** Every item as last read, with this device's queued changes on top. */
	items: SharedItems;
	/** When the plugin was last found absent (`on` false). */
	absentAt?: number;
}

export const SHARED_COPY = storedKeyFamily<SharedCopy>({
	store: 'sync',
	prefix: 'shared-settings:',
	owner: 'sync/shared-settings.ts',
	parse: (raw) => {
		const record = isRecord(raw);
		if (!record || (record.on !== undefined && typeof record.on !== 'boolean')) return undefined;
		try {
			const items = parseSharedSettings({ items: record.items, now: 0 }).items;
			return typeof record.absentAt === 'number'
				? { on: record.on, items, absentAt: record.absentAt }
				: { on: record.on, items };
		} catch {
			return undefined;
		}
	},
	fallback: () => ({ on: undefined, items: {} })
});

/** The device's copy for `account`. */
export async function sharedCopy(account: string): Promise<SharedCopy> {
	return getStored(SHARED_COPY(account));
}

/** This account's setting changes still in the outbox, as items. */
async function queuedSettings(account: string): Promise<SharedItems> {
	let queued: SharedItems = {};
	for (const { intent, account: owner } of await outboxItems()) {
		if (intent.type !== 'setting' || (owner !== undefined && owner !== account)) continue;
		const item = mergeItem(queued[intent.key], { value: intent.value, mtime: intent.mtime });
		if (item) queued = { ...queued, [intent.key]: item };
	}
	return queued;
}

/** How long a plugin found absent is taken to be so (this page or worker asks once at its start). */
export const ABSENT_RECHECK_MS = 10 * 60_000;
let askedHere = false;

/**
 * Reads the server's items into the device's copy; returns the copy, or undefined when the server
 * could not be asked (the copy is then as it was). Never throws: a sync goes on without it.
 */
export async function syncSharedSettings(
	client: TtrssClient,
	account: string,
	op: OpOptions = {},
	now: number = Date.now()
): Promise<SharedCopy | undefined> {
	// Where the plugin was found absent, this page's or worker's first sync asks again, and then one
	// in ABSENT_RECHECK_MS: an idle sync stays one request to tt-rss (getCounters), not two.
	if (askedHere) {
		const before = await sharedCopy(account);
		if (
			before.on === false &&
			before.absentAt !== undefined &&
			now - before.absentAt < ABSENT_RECHECK_MS
		)
			return before;
	}
	askedHere = true;
	let copy: SharedCopy;
	try {
		const reply = await client.sharedSettings({}, op);
		copy = { on: true, items: mergeItems(reply.items, await queuedSettings(account)) };
	} catch (error) {
		if (!pluginAbsent(error)) return undefined;
		copy = { on: false, items: {}, absentAt: now };
	}
	await putStored(SHARED_COPY(account), copy);
	return copy;
}
