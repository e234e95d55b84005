/**
 * Reader choices kept in one `localStorage` entry each (settings, swipes): read synchronously at
 * start (a screen needs them before IndexedDB answers), every write parsed again through the same
 * narrowing as a read, so what is kept is always a valid value. Cleared with the rest of local
 * storage at sign-out, and forgotten in memory then (db/account-events.ts). A change made in another
 * tab (its `storage` event) applies here too, so two open windows never show two themes or write
 * back each other's stale choices.
 */
import { onAccountEvent } from '$lib/db/account-events';
export class StoredValues<T extends object> {
	#values: T;
	/** Told of the reader's own changes (not those another device made: `update(…, false)`). */
	#changed: ((patch: Partial<T>) => void)[] = [];

	constructor(
		private readonly key: string,
		private readonly parse: (raw: string | null) => T,
		private readonly defaults: T
	) {
		const read = typeof localStorage !== 'undefined' ? parse(localStorage.getItem(key)) : defaults;
		this.#values = $state(read);
		onAccountEvent((event) => {
			if (event.type === 'signed-out') this.reset();
		});
		if (typeof window !== 'undefined') {
			window.addEventListener('storage', (event) => this.#fromOtherTab(event));
		}
	}

	/** Another tab wrote (or cleared) this entry: take its value, narrowed like any read. */
	#fromOtherTab(event: StorageEvent): void {
		if (event.storageArea !== localStorage) return;
		if (event.key !== null && event.key !== this.key) return;
		this.#values = this.parse(event.key === null ? null : event.newValue);
	}

	get values(): T {
		return this.#values;
	}

	/** `mine` false: a change from the reader's other devices (state/shared-settings.svelte.ts). */
	update(patch: Partial<T>, mine = true): void {
		this.#values = this.parse(JSON.stringify({ ...this.#values, ...patch }));
		if (typeof localStorage !== 'undefined') {
			localStorage.setItem(this.key, JSON.stringify(this.#values));
		}
		if (mine) for (const listener of this.#changed) listener(patch);
	}

	/** Hears of each change the reader makes here; returns the function that stops it. */
	onChange(listener: (patch: Partial<T>) => void): () => void {
		this.#changed = [...this.#changed, listener];
		return () => {
			this.#changed = this.#changed.filter((other) => other !== listener);
		};
	}

	reset(): void {
		this.#values = this.defaults;
		if (typeof localStorage !== 'undefined') localStorage.removeItem(this.key);
	}
}
