/**
 * The page's one door for the reader's changes: queue the intent in the outbox, then ask for a
 * replay. Page-side (it reaches the page's replay triggers and so the page's session), which is why
 * it is here and not in outbox/, which the service worker shares. Importing it starts nothing: the
 * app's lifecycle starts the triggers (state/lifecycle.ts).
 */
import { enqueueIntent } from '$lib/outbox/outbox';
import type { Hold } from '$lib/outbox/hold';
import type { Intent } from '$lib/outbox/intent';
import { requestReplay } from './replay-triggers';

/**
 * Resolves once the intent is durable in the IndexedDB outbox (coalesced with older changes to the
 * same article and field, and already applied to the cached articles); sending happens afterwards,
 * now or when the server is reachable again. Never throws for network or server trouble: the change
 * is safe in the outbox. It throws only when IndexedDB itself cannot store it (then the caller
 * should undo its local change). The caller has already applied the change to what the reader sees.
 * With `hold`, it waits while the reader can undo it (state/undo.svelte.ts).
 */
export async function submitIntent(intent: Intent, hold?: Hold): Promise<void> {
	await enqueueIntent(intent, Date.now(), hold);
	requestReplay();
}
