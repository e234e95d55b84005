/**
 * The page's one door for the reader's changes: write the intent ahead, show it, queue it in the
 * outbox, then ask for a replay. Page-side (it reaches the page's replay triggers and so the
 * page's session), which is why it is here and not in outbox/, which the service worker shares.
 * Importing it starts nothing: the app's lifecycle starts the triggers (state/lifecycle.ts).
 *
 * A change the screen shows (`submitChange`, every action of state/actions.ts) passes each module
 * once, in order: the write-ahead entry, the change marked as being queued, the screen's patches,
 * the paint, the outbox, the replay's request, the counters' refresh.
 */
import { readerText } from '$lib/api';
import { shownAccount } from '$lib/db/account';
import { m } from '$lib/i18n/m';
import { enqueueIntent } from '$lib/outbox/enqueue';
import type { Hold, Undone } from '$lib/outbox/hold';
import type { Intent } from '$lib/outbox/intent';
import { markBeingQueued } from '$lib/outbox/outbox';
import { itemKey, unreadKey } from '$lib/outbox/split';
import { afterNextPaint } from '$lib/perf/paint';
import { refreshCountersWhenSent } from './counter-sync';
import { requestReplay } from './replay-triggers';
import { putBack, showPatches, type ArticleChangeOf } from './screen-patch';
import { toasts } from './toasts.svelte';
import { undo as undoState } from './undo.svelte';
import { journal, type Ticket } from './write-ahead';

/** The words a refused change shows (the reason, or a general one). */
export function failureText(error: unknown): string {
	return readerText(error, m.failure_change());
}

/** The outbox key a change to this article makes (a catch-up's is its read flag). */
function keyOf(intent: Intent, id: number): string {
	return intent.type === 'flag' || intent.type === 'label' || intent.type === 'note'
		? itemKey(intent, id)
		: unreadKey(id);
}

/**
 * Shows the change, queues it, and puts the screen back if it is refused (false, the reason in a
 * toast). With `undoText`, the change is held while the Undo toast shows; `onUndone` then runs
 * after the rows are put back (a catch-up's counters).
 */
export async function submitChange(
	changes: ArticleChangeOf[],
	intent: Intent,
	undoText?: string,
	onUndone?: () => Promise<void>
): Promise<boolean> {
	if (changes.length === 0 && intent.type !== 'catchup') return true;
	// Kept before the screen shows it: a reload before the outbox has it queues it at the next
	// start (write-ahead.ts).
	const ticket = writeAhead(intent);
	// On screen from here: a server answer that arrives before the outbox has it keeps it.
	const queued = markBeingQueued(intent);
	try {
		const shown = showPatches(changes);
		// The screen has the change; the outbox write (an IndexedDB transaction that reads and
		// writes the cached tree and articles) waits for its paint, so the input's frame shows
		// without it. The write-ahead entry above keeps the change across a reload meanwhile.
		await afterNextPaint();
		const hold = undoText ? await undoState.begin() : undefined;
		try {
			await submitIntent(intent, hold, ticket);
		} catch (error) {
			putBack(shown);
			toasts.show(failureText(error), 'error');
			return false;
		}
		if (hold && undoText) {
			undoState.offer(hold, undoText, async (undone: Undone) => {
				// What the reader changed since stays; a key replaced by a later change is not taken back.
				putBack(
					shown.filter(({ ref }) => {
						const key = keyOf(intent, ref.id);
						return (
							(intent.type === 'catchup' || undone.keys.has(key)) && !undone.changedSince.has(key)
						);
					})
				);
				await onUndone?.();
				refreshCountersWhenSent();
			});
		}
		refreshCountersWhenSent();
		return true;
	} finally {
		queued();
	}
}

/**
 * Resolves once the intent is durable in the IndexedDB outbox (coalesced with older changes to the
 * same article and field, and already applied to the cached articles); sending happens afterwards,
 * now or when the server is reachable again. Never throws for network or server trouble: the change
 * is safe in the outbox. It throws only when IndexedDB itself cannot store it (then the caller
 * should undo its local change). The caller has already applied the change to what the reader sees.
 * With `hold`, it waits while the reader can undo it (state/undo.svelte.ts).
 */
export async function submitIntent(
	intent: Intent,
	hold?: Hold,
	ticket: Ticket = writeAhead(intent)
): Promise<void> {
	try {
		await enqueueIntent(intent, Date.now(), hold, { journal: ticket.id });
	} finally {
		// Durable in the outbox, or refused (the caller puts the screen back): either way, done.
		ticket.settle();
	}
	requestReplay();
}

/**
 * Writes the change ahead of the outbox (state/write-ahead.ts), synchronously: a caller that
 * changes the screen first calls this before it does, and hands the ticket to `submitIntent`.
 */
export function writeAhead(intent: Intent): Ticket {
	return journal(intent, shownAccount());
}
