/**
 * Short messages for the reader (an action the server refused, a subscription added…), and the
 * Undo offer after a change the reader can take back (state/undo.svelte.ts).
 */
import { onAccountEvent } from '$lib/db/account-events';
import { TOAST_MS } from './toast-ms';
export interface ToastAction {
	label: string;
	run: () => void;
}

export interface Toast {
	id: number;
	text: string;
	kind: 'info' | 'error';
	/** A button in the toast (Undo). */
	action?: ToastAction;
}

export interface ToastOptions {
	action?: ToastAction;
	/** How long an info toast stays (ms); the owner of an action may dismiss it itself instead. */
	ms?: number;
}

export { TOAST_MS };

class Toasts {
	#items = $state.raw<Toast[]>([]);
	#next = 1;

	get items(): Toast[] {
		return this.#items;
	}

	/** Shows a toast; returns its id (for `dismiss`). */
	show(text: string, kind: Toast['kind'] = 'info', options: ToastOptions = {}): number {
		const toast: Toast = {
			id: this.#next++,
			text,
			kind,
			...(options.action ? { action: options.action } : {})
		};
		this.#items = [...this.#items.slice(-2), toast];
		// Errors stay until dismissed: the reader must be able to read why an action was undone.
		if (kind === 'info' && options.ms !== Infinity) {
			setTimeout(() => this.dismiss(toast.id), options.ms ?? TOAST_MS);
		}
		return toast.id;
	}

	dismiss(id: number): void {
		this.#items = this.#items.filter((t) => t.id !== id);
	}

	reset(): void {
		this.#items = [];
	}
}

export const toasts = new Toasts();
onAccountEvent(() => toasts.reset());
