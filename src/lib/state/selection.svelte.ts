/**
 * The headlines the reader has picked for a bulk action (the selection bar: mark read or unread,
 * star, label). Kept as article ids, not rows, so it survives the virtual list building and
 * dropping rows as it scrolls, and the rows' own changes. It belongs to one list: opening another
 * list clears it (`follow`). Selecting is "on" while anything is selected.
 */
import { onAccountEvent } from '$lib/db/account-events';

class Selection {
	#ids = $state.raw<ReadonlySet<number>>(new Set());
	/** The list the selection was made in (its query, as a string). */
	#list: string | undefined;
	/** Where a Shift-click range starts: the last row toggled on. */
	#anchor: number | undefined;

	get active(): boolean {
		return this.#ids.size > 0;
	}

	get count(): number {
		return this.#ids.size;
	}

	get ids(): ReadonlySet<number> {
		return this.#ids;
	}

	has(id: number): boolean {
		return this.#ids.has(id);
	}

	/** The list on screen changed: a selection made in another list does not carry over. */
	follow(list: string): void {
		if (list === this.#list) return;
		this.#list = list;
		this.clear();
	}

	toggle(id: number): void {
		// A new set each time (never changed in place): `$state.raw` tells the rows by identity.
		// eslint-disable-next-line svelte/prefer-svelte-reactivity
		const next = new Set(this.#ids);
		if (next.has(id)) {
			next.delete(id);
		} else {
			next.add(id);
			this.#anchor = id;
		}
		this.#ids = next;
	}

	/**
	 * Selects the rows from the last one toggled on to `id` (both included), as a Shift-click does;
	 * without such a row, just `id`.
	 */
	range(id: number, rows: readonly { id: number }[]): void {
		const from = this.#anchor === undefined ? -1 : rows.findIndex((r) => r.id === this.#anchor);
		const to = rows.findIndex((r) => r.id === id);
		if (from === -1 || to === -1) {
			if (!this.#ids.has(id)) this.toggle(id);
			return;
		}
		// eslint-disable-next-line svelte/prefer-svelte-reactivity
		const next = new Set(this.#ids);
		for (const row of rows.slice(Math.min(from, to), Math.max(from, to) + 1)) next.add(row.id);
		this.#ids = next;
	}

	/** Every row loaded in the list (not the ones the server has not sent yet). */
	selectAll(rows: readonly { id: number }[]): void {
		this.#ids = new Set([...this.#ids, ...rows.map((r) => r.id)]);
	}

	/** The selected rows among `rows`, in list order. */
	pick<T extends { id: number }>(rows: readonly T[]): T[] {
		return rows.filter((r) => this.#ids.has(r.id));
	}

	clear(): void {
		if (this.#ids.size > 0) this.#ids = new Set();
		this.#anchor = undefined;
	}

	/** Test and sign-out hook. */
	reset(): void {
		this.#list = undefined;
		this.clear();
	}
}

export const selection = new Selection();
onAccountEvent(() => selection.reset());
