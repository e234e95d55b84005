import { cachedTree } from '$lib/cache/cache-reads';
import { belongsTo, shownAccount } from '$lib/db/account';
import type { FailedItem, OutboxItem } from '$lib/db/schema';
import type { IntentNames } from '$lib/outbox/intent';
import { watchOutbox } from '$lib/outbox/broadcast';
import { failedItems, intentNames, pendingItems } from '$lib/outbox/outbox';
import { loadReplayStatus, type ReplayStatus } from '$lib/outbox/status';
import { inPage, onWindow } from './page-events';
import { onStorageProblem, storageEstimate, type StorageEstimateInfo } from './storage';
import { onAccountEvent } from '$lib/db/account-events';

/** The pending list shows this many changes (the oldest); the rest are counted. */
export const PENDING_SHOWN = 50;

/** Online, the app bar counts waiting changes only once they have waited this long. */
export const PENDING_SHOWN_AFTER_MS = 1000;

/**
 * What the reader needs to know about offline use: connection, pending and failed changes,
 * "sign in needed", when the cached data was last updated, storage used and storage problems.
 * Refreshed from IndexedDB whenever the outbox changes in any tab or the worker.
 */
class OfflineStatus {
	#online = $state(true);
	#pending = $state(0);
	#failed = $state<FailedItem[]>([]);
	#waiting = $state<OutboxItem[]>([]);
	#names = $state<IntentNames>({ articles: new Map(), titles: new Map() });
	#replay = $state<ReplayStatus>({ signInNeeded: false });
	#treeFetchedAt = $state<number | undefined>();
	#storageMessage = $state<string | undefined>();
	#storage = $state<StorageEstimateInfo>({
		usage: undefined,
		quota: undefined,
		persisted: undefined
	});

	get online(): boolean {
		return this.#online;
	}
	get pending(): number {
		return this.#pending;
	}
	get failed(): FailedItem[] {
		return this.#failed;
	}
	/** The oldest pending changes (at most PENDING_SHOWN), for the list of what will be sent. */
	get waiting(): OutboxItem[] {
		return this.#waiting;
	}
	/** Article titles and feed/label names for describing the pending and failed changes. */
	get names(): IntentNames {
		return this.#names;
	}
	get signInNeeded(): boolean {
		return this.#replay.signInNeeded;
	}
	get lastError(): string | undefined {
		return this.#replay.lastError;
	}
	get lastSentAt(): number | undefined {
		return this.#replay.lastSentAt;
	}
	/** When the feed tree and counters were last fetched from the server. */
	get treeFetchedAt(): number | undefined {
		return this.#treeFetchedAt;
	}
	get storageMessage(): string | undefined {
		return this.#storageMessage;
	}
	get storage(): StorageEstimateInfo {
		return this.#storage;
	}

	#reading: Promise<void> | undefined;
	#again = false;
	#treeWanted = false;

	/**
	 * Reads the outbox again, and with `tree` (the default) when the tree was last fetched. A burst
	 * of changes (taps, a replay confirming item after item) reads it once for the burst: while a
	 * read runs, the calls meanwhile become one read after it. A change of the outbox alone does not
	 * read the tree: on a big account its record is the costliest read of a tap.
	 */
	refresh({ tree = true }: { tree?: boolean } = {}): Promise<void> {
		this.#treeWanted ||= tree;
		if (this.#reading) {
			this.#again = true;
			return this.#reading;
		}
		const read = async (): Promise<void> => {
			do {
				this.#again = false;
				const withTree = this.#treeWanted;
				this.#treeWanted = false;
				await this.#read(withTree);
			} while (this.#again);
		};
		this.#reading = read().finally(() => {
			this.#reading = undefined;
		});
		return this.#reading;
	}

	async #read(withTree: boolean): Promise<void> {
		try {
			const [queued, refused, replay, tree] = await Promise.all([
				pendingItems(),
				failedItems(),
				loadReplayStatus(),
				withTree ? cachedTree() : undefined
			]);
			// Only the signed-in account's changes: another account's kept ones are not this
			// reader's to see, and only their own account sends them.
			const account = shownAccount();
			const own = queued.filter((item) => belongsTo(item, account));
			const pending = own.length;
			const waiting = own.slice(0, PENDING_SHOWN);
			const failed = refused.filter((item) => belongsTo(item, account));
			this.#names = await intentNames([...waiting, ...failed].map((item) => item.intent));
			this.#pending = pending;
			this.#waiting = waiting;
			this.#failed = failed;
			this.#replay = replay;
			if (withTree) this.#treeFetchedAt = tree?.fetchedAt;
		} catch {
			// IndexedDB unavailable: keep the last known values.
		}
	}

	async refreshStorage(): Promise<void> {
		this.#storage = await storageEstimate();
	}

	/** Listens for connection, outbox and storage changes; returns the function that stops it. */
	start(): () => void {
		if (!inPage()) return () => undefined;
		this.#online = navigator.onLine;
		const stopOnline = onWindow('online', () => {
			this.#online = true;
		});
		const stopOffline = onWindow('offline', () => {
			this.#online = false;
		});
		const stopWatching = watchOutbox(() => void this.refresh({ tree: false }));
		const stopStorage = onStorageProblem((message) => {
			this.#storageMessage = message;
		});
		void this.refresh();
		void this.refreshStorage();
		return () => {
			stopOnline();
			stopOffline();
			stopWatching();
			stopStorage();
		};
	}

	/** For tests. */
	reset(): void {
		this.#pending = 0;
		this.#failed = [];
		this.#waiting = [];
		this.#replay = { signInNeeded: false };
		this.#treeFetchedAt = undefined;
		this.#storageMessage = undefined;
	}
}

export const offlineStatus = new OfflineStatus();
onAccountEvent(() => offlineStatus.reset());
