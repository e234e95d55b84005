import { enqueueIntent } from './outbox';
import type { Intent } from './intent';
import { inPage } from '$lib/offline/page-events';
import { requestReplay, startReplayTriggers } from '$lib/offline/triggers';

// The replay triggers (start, online, tab visible) start with the reader UI, which imports this
// module, so changes queued in an earlier visit go out once the first screen has painted, even where
// no layout mounts <OfflineStatus>. Idempotent: the layout may call startReplayTriggers() as well.
if (inPage()) startReplayTriggers();

/**
 * The one door for article updates. Resolves once the intent is durable in the IndexedDB outbox
 * (coalesced with older changes to the same article and field, and already applied to the cached
 * articles); sending happens afterwards, now or when the server is reachable again. Never throws
 * for network or server trouble: the change is safe in the outbox. It throws only when IndexedDB
 * itself cannot store it (then the caller should undo its local change).
 * The caller has already applied the change to what the reader sees.
 */
export async function submitIntent(intent: Intent): Promise<void> {
	await enqueueIntent(intent);
	requestReplay();
}
