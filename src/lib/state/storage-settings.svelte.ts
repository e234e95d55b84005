/**
 * The reader's storage choices (images setting, budget) for the settings and storage pages. They
 * live in IndexedDB (offline/policy.ts), not with the other settings in localStorage, because the
 * service worker syncs and fetches images too; this class is their reactive face in the page.
 */
import { enforceBudget } from '$lib/offline/budget';
import { defaultBudgetMB } from '$lib/offline/storage-measure';
import { DEFAULT_POLICY, readStoragePolicy, writeStoragePolicy } from '$lib/offline/policy';
import type { StoragePolicy } from '$lib/offline/policy';
import { storageEstimate } from '$lib/offline/storage';

class StorageSettings {
	#policy = $state<StoragePolicy>(DEFAULT_POLICY);
	#automaticMB = $state<number | undefined>();

	get policy(): StoragePolicy {
		return this.#policy;
	}

	/** The budget chosen from the browser's quota when the reader has not set one (MB). */
	get automaticMB(): number | undefined {
		return this.#automaticMB;
	}

	/** The budget in force (MB), once loaded. */
	get budgetMB(): number | undefined {
		return this.#policy.budgetMB ?? this.#automaticMB;
	}

	async load(): Promise<void> {
		const [policy, estimate] = await Promise.all([readStoragePolicy(), storageEstimate()]);
		this.#policy = policy;
		this.#automaticMB = defaultBudgetMB(estimate);
	}

	/** Saves the change; a lower budget takes effect at once (read articles go first). */
	async update(patch: Partial<StoragePolicy>): Promise<void> {
		const before = this.budgetMB;
		this.#policy = await writeStoragePolicy(patch);
		if (this.budgetMB !== undefined && before !== undefined && this.budgetMB < before) {
			await enforceBudget();
		}
	}
}

export const storageSettings = new StorageSettings();
