import { offlineStatus } from '$lib/offline/status.svelte';
import { setAppBadge } from '$lib/pwa/badge';
import { articleState } from './article.svelte';
import { headlines } from './headlines.svelte';
import { session } from './session.svelte';
import { toasts } from './toasts.svelte';
import { treeState } from './tree.svelte';

/**
 * Signs out and wipes everything kept on this device. Unsent changes would be wiped too, so the
 * reader is asked first: nothing they did is dropped without their word.
 * Returns false when the reader chose to stay.
 */
export async function signOut(confirmLoss: (message: string) => boolean): Promise<boolean> {
	const pending = offlineStatus.pending;
	if (
		pending > 0 &&
		!confirmLoss(
			`${pending} ${pending === 1 ? 'change has' : 'changes have'} not reached the server yet. Signing out deletes ${pending === 1 ? 'it' : 'them'} from this device. Sign out anyway?`
		)
	) {
		return false;
	}
	await session.signOut();
	treeState.reset();
	headlines.reset();
	articleState.close();
	toasts.reset();
	await setAppBadge(0);
	return true;
}
