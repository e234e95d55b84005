/**
 * The page's one door for the reader's changes: queue the intent in the outbox, then ask for a
 * replay. Page-side (it reaches the page's replay triggers and so the page's session), which is why
 * it is here and not in outbox/, which the service worker shares. Importing it starts nothing: the
 * app's lifecycle starts the triggers (state/lifecycle.ts).
 */
import { enqueueIntent } from '$lib/outbox/enqueue';
import type { Hold } from '$lib/outbox/hold';
import type { Intent } from '$lib/outbox/intent';
import { shownAccount } from '$lib/db/account';
import { requestReplay } from './replay-triggers';
import { journal, type Ticket } from './write-ahead';

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
