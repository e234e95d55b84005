/**
 * "Kept on the server" (issue 60), the page's half: the reader's settings, swipe actions and muted
 * words follow the device's copy of what the Reader plugin keeps (sync/shared-settings.ts, read at
 * each sync), and each change the reader makes here is queued in the outbox as a `setting` intent
 * (one per item, dated now) and sent like any other change: exactly once, in order, only with this
 * account's session. Per item, the later change wins (sync/shared-merge.ts); the plugin keeps what
 * a change replaced. Without the plugin, nothing is queued and the settings stay the device's.
 *
 * Kept on the device whatever the plugin: how many articles this device keeps offline
 * (`offlineArticles`), its storage budget and image policy (offline/policy.ts), its language.
 */
import { shownAccount } from '$lib/db/account';
import { onAccountEvent } from '$lib/db/account-events';
import { mute, type MuteSettings } from '$lib/mute/mute.svelte';
import { onSyncMessage } from '$lib/sync/channel';
import { sharedCopy } from '$lib/sync/shared-settings';
import type { SharedItems } from '$lib/api/shared-settings-op';
import { settings, type SettingsValues } from './settings.svelte';
import { submitIntent } from './submit';
import { swipes } from './swipe.svelte';

/** Settings of the device, not of the reader: never sent. */
const DEVICE_ONLY: ReadonlySet<string> = new Set<keyof SettingsValues>(['offlineArticles']);
const MUTE_FIELDS = ['words', 'content', 'markRead'] as const;

/** The items' keys: `reader.<setting>`, `swipe.<side>`, `mute.<field>`. */
const READER = 'reader.';
const SWIPE = 'swipe.';
const MUTE = 'mute.';

export type SharedMode = 'server' | 'device' | undefined;

function parsedValue(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
}

/** The items under `prefix` that differ from `current`, as a patch (not yet narrowed). */
function patchOf(items: SharedItems, prefix: string, current: object): Record<string, unknown> {
	const patch: Record<string, unknown> = {};
	const now = current as Record<string, unknown>;
	for (const [key, item] of Object.entries(items)) {
		if (!key.startsWith(prefix)) continue;
		const field = key.slice(prefix.length);
		if (!(field in now) || DEVICE_ONLY.has(field)) continue;
		const value = parsedValue(item.value);
		if (value !== undefined && JSON.stringify(value) !== JSON.stringify(now[field])) {
			patch[field] = value;
		}
	}
	return patch;
}

class SharedSettings {
	#mode = $state<SharedMode>(undefined);

	/** Where the reader's settings are kept: by the plugin, on this device only, or not known yet. */
	get mode(): SharedMode {
		return this.#mode;
	}

	/** Applies the device's copy of the server's items (at start and after each sync). */
	async refresh(account = shownAccount()): Promise<void> {
		if (account === undefined) return;
		const copy = await sharedCopy(account);
		if (account !== shownAccount()) return;
		this.#mode = copy.on === true ? 'server' : copy.on === false ? 'device' : undefined;
		if (copy.on !== true) return;
		const reading = patchOf(copy.items, READER, settings.values);
		if (Object.keys(reading).length > 0) settings.update(reading, false);
		const sides = patchOf(copy.items, SWIPE, swipes.values);
		if (Object.keys(sides).length > 0) swipes.update(sides, false);
		const muted = patchOf(copy.items, MUTE, mute.settings);
		if (Object.keys(muted).length > 0) {
			await mute.load(account);
			await mute.save(account, { ...mute.settings, ...muted }, false);
		}
	}

	/** Queues the reader's change of these items, when the plugin keeps them. */
	async #share(prefix: string, patch: Record<string, unknown>): Promise<void> {
		if (this.#mode !== 'server') return;
		const mtime = Date.now();
		for (const [field, value] of Object.entries(patch)) {
			if (DEVICE_ONLY.has(field) || value === undefined) continue;
			await submitIntent({
				type: 'setting',
				key: `${prefix}${field}`,
				value: JSON.stringify(value),
				mtime
			});
		}
	}

	/** Starts following the copy and queuing the reader's changes; returns what stops it. */
	start(): () => void {
		const share = (prefix: string) => (patch: object) => {
			void this.#share(prefix, patch as Record<string, unknown>).catch(() => undefined);
		};
		const stops = [
			settings.onChange(share(READER)),
			swipes.onChange(share(SWIPE)),
			mute.onSave((_account: string, saved: MuteSettings, before: MuteSettings) => {
				// Only what this save changed: another device's change of the rest stays.
				const changed = MUTE_FIELDS.filter(
					(field) => JSON.stringify(saved[field]) !== JSON.stringify(before[field])
				);
				share(MUTE)(Object.fromEntries(changed.map((field) => [field, saved[field]])));
			}),
			onSyncMessage((message) => {
				if (message.type === 'sync-done') void this.refresh().catch(() => undefined);
			}),
			onAccountEvent(() => {
				this.#mode = undefined;
			})
		];
		void this.refresh().catch(() => undefined);
		return () => {
			for (const stop of stops) stop();
		};
	}
}

export const sharedSettings = new SharedSettings();
