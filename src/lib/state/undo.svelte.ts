/**
 * Undo on the page: after a change to several articles or a swipe, an "Undo" toast
 * shows for UNDO_MS while the change waits in the outbox (outbox/hold.ts), so an undone change is
 * never sent at all. One offer at a time: a new undoable change commits (sends) the previous one,
 * as does the page going hidden or away (`commit`), so nothing waits on a page nobody sees; if
 * the page dies before that, the hold expires by itself shortly after the toast would have gone.
 *
 * For actions (state/actions.ts does this; bulk actions use its `setFlag`/`setLabels` with
 * `{ undo: 'the toast text' }`):
 *   const hold = await undo.begin();          // commits the previous offer first
 *   apply on screen, then submitIntent(intent, hold);
 *   undo.offer(hold, text, (undone) => …);    // puts the screen back when the reader undoes it
 */
import { cancelHold, releaseHold, type Hold, type Undone } from '$lib/outbox/hold';
import { isTyping } from '$lib/keyboard/typing';
import { requestReplay } from './replay-triggers';
import { toasts, TOAST_MS } from './toasts.svelte';
import { m, whenAllMessages } from '$lib/i18n/m';
import { onAccountEvent } from '$lib/db/account-events';

/** How long the Undo toast shows. */
export const UNDO_MS = TOAST_MS;
/** The hold outlasts the toast a little: Undo pressed at its last moment still finds it held. */
export const HOLD_GRACE_MS = 1500;

interface Offer {
	hold: Hold;
	text: string;
	toast: number;
	timer: ReturnType<typeof setTimeout>;
	revert: (undone: Undone) => void | Promise<void>;
}

function newId(): string {
	return typeof crypto !== 'undefined' && 'randomUUID' in crypto
		? crypto.randomUUID()
		: `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

class UndoState {
	#offer = $state.raw<Offer | undefined>();

	/** The change the reader can undo now, by its toast's text. */
	get pending(): string | undefined {
		return this.#offer?.text;
	}

	/** A hold for a new undoable change; the previous offer is committed first. */
	async begin(now = Date.now()): Promise<Hold> {
		await this.commit();
		return { id: newId(), until: now + UNDO_MS + HOLD_GRACE_MS };
	}

	/** Shows the Undo toast for a change queued with `hold`. */
	offer(hold: Hold, text: string, revert: Offer['revert']): void {
		listenOnce();
		const toast = toasts.show(text, 'info', {
			ms: Infinity,
			action: { label: m.undo(), run: () => void this.undo() }
		});
		const timer = setTimeout(() => void this.commit(), UNDO_MS);
		this.#offer = { hold, text, toast, timer, revert };
	}

	#take(): Offer | undefined {
		const offer = this.#offer;
		if (!offer) return undefined;
		this.#offer = undefined;
		clearTimeout(offer.timer);
		toasts.dismiss(offer.toast);
		return offer;
	}

	/** The toast went away (or the page is going): the change is sent. */
	async commit(): Promise<void> {
		const offer = this.#take();
		if (!offer) return;
		try {
			await releaseHold(offer.hold.id);
		} catch {
			// Storage refused the write (full): the hold expires by itself a moment later.
		}
		requestReplay();
	}

	/** Takes back the offered change: nothing of it is sent, the screen shows what was before. */
	async undo(): Promise<boolean> {
		const offer = this.#take();
		if (!offer) return false;
		let undone: Undone | undefined;
		try {
			undone = await cancelHold(offer.hold.id);
		} catch {
			undone = undefined;
		}
		if (!undone) {
			await whenAllMessages();
			toasts.show(m.toast_undo_too_late());
			requestReplay();
			return false;
		}
		await offer.revert(undone);
		await whenAllMessages();
		toasts.show(m.toast_undone());
		// Older changes the undone one had replaced are queued again.
		requestReplay();
		return true;
	}

	/** Test hook. */
	reset(): void {
		const offer = this.#offer;
		if (offer) clearTimeout(offer.timer);
		this.#offer = undefined;
	}
}

export const undo = new UndoState();
onAccountEvent(() => undo.reset());

/** `z` or Ctrl+Z (⌘Z) takes back the offered change, unless the reader is typing. */
function undoKey(event: KeyboardEvent): void {
	if (event.key !== 'z' && event.key !== 'Z') return;
	if (event.altKey || event.shiftKey || event.isComposing || isTyping(event.target)) return;
	const plain = !event.ctrlKey && !event.metaKey;
	const command = event.ctrlKey !== event.metaKey;
	if (!(plain || command) || undo.pending === undefined) return;
	event.preventDefault();
	void undo.undo();
}

let listening = false;

/**
 * From the first offer on (this module loads with the reader's actions, after the first screen):
 * the Undo keys, and the offer committed when the page goes hidden or away (a closed tab, another
 * app on a phone) — what the reader left with must be sent, not wait on a page nobody sees.
 */
function listenOnce(): void {
	if (listening || typeof document === 'undefined') return;
	listening = true;
	window.addEventListener('keydown', undoKey);
	document.addEventListener('visibilitychange', () => {
		if (document.visibilityState === 'hidden') void undo.commit();
	});
	window.addEventListener('pagehide', () => void undo.commit());
}
