/**
 * What the reader sees of syncing: whether one runs and how far it got (never blocking reading),
 * when the last one succeeded (the header's "Updated"), and why the last one failed. Syncs of
 * other tabs and the worker count too: they say so on the sync channel.
 */
import type { SyncProgress } from './engine';
import { onAccountEvent } from '$lib/db/account-events';

class SyncStatus {
	#running = $state(false);
	#progress = $state<SyncProgress | undefined>();
	#lastSyncAt = $state<number | undefined>();
	#error = $state<string | undefined>();

	get running(): boolean {
		return this.#running;
	}
	get progress(): SyncProgress | undefined {
		return this.#progress;
	}
	/** When the offline copy was last brought up to date (any tab or the worker). */
	get lastSyncAt(): number | undefined {
		return this.#lastSyncAt;
	}
	get error(): string | undefined {
		return this.#error;
	}

	begin(): void {
		this.#running = true;
		this.#progress = undefined;
		this.#error = undefined;
	}

	report(progress: SyncProgress): void {
		this.#progress = progress;
	}

	succeeded(at: number): void {
		this.#running = false;
		this.noteSynced(at);
	}

	failed(message: string): void {
		this.#running = false;
		this.#error = message;
	}

	/** A sync finished somewhere (or the stored time was read): only ever moves forward. */
	noteSynced(at: number | undefined): void {
		if (at === undefined) return;
		this.#lastSyncAt = Math.max(at, this.#lastSyncAt ?? 0);
		this.#error = undefined;
	}

	end(): void {
		this.#running = false;
	}

	reset(): void {
		this.#running = false;
		this.#progress = undefined;
		this.#lastSyncAt = undefined;
		this.#error = undefined;
	}
}

export const syncStatus = new SyncStatus();
onAccountEvent(() => syncStatus.reset());
