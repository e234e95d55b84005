/**
 * Reader choices kept in one `localStorage` entry each (settings, swipes): read synchronously at
 * start (a screen needs them before IndexedDB answers), every write parsed again through the same
 * narrowing as a read, so what is kept is always a valid value. Cleared with the rest of local
 * storage at sign-out, and forgotten in memory then (db/account-events.ts).
 */
import { onAccountEvent } from '$lib/db/account-events';
export class StoredValues<T extends object> {
	#values: T;

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
	}

	get values(): T {
		return this.#values;
	}

	update(patch: Partial<T>): void {
		this.#values = this.parse(JSON.stringify({ ...this.#values, ...patch }));
		if (typeof localStorage !== 'undefined') {
			localStorage.setItem(this.key, JSON.stringify(this.#values));
		}
	}

	reset(): void {
		this.#values = this.defaults;
		if (typeof localStorage !== 'undefined') localStorage.removeItem(this.key);
	}
}
