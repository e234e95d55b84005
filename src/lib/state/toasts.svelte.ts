/** Short messages for the reader (an action the server refused, a subscription added…). */
export interface Toast {
	id: number;
	text: string;
	kind: 'info' | 'error';
}

class Toasts {
	#items = $state.raw<Toast[]>([]);
	#next = 1;

	get items(): Toast[] {
		return this.#items;
	}

	show(text: string, kind: Toast['kind'] = 'info'): void {
		const toast = { id: this.#next++, text, kind };
		this.#items = [...this.#items.slice(-2), toast];
		// Errors stay until dismissed: the reader must be able to read why an action was undone.
		if (kind === 'info') setTimeout(() => this.dismiss(toast.id), 5000);
	}

	dismiss(id: number): void {
		this.#items = this.#items.filter((t) => t.id !== id);
	}

	reset(): void {
		this.#items = [];
	}
}

export const toasts = new Toasts();
