import { changesByAccount, type Changes } from '$lib/db/device';
import { offlineStatus } from '$lib/offline/status.svelte';
import { describeIntent } from '$lib/outbox/intent';
import { setAppBadge } from '$lib/pwa/badge';
import { articleState } from './article.svelte';
import { feedPrefs } from './feed-prefs.svelte';
import { headlines } from './headlines.svelte';
import { session } from './session.svelte';
import { settings } from './settings.svelte';
import { toasts } from './toasts.svelte';
import { treeState } from './tree.svelte';

/** At most this many changes are listed by name in a question; the rest are counted. */
const LISTED = 10;

/** The lines of a question about unsent changes: each change by what it does, failed ones marked. */
export function listChanges(changes: Changes): string {
	const lines = [
		...changes.pending.map((item) => describeIntent(item.intent)),
		...changes.failed.map((item) => `${describeIntent(item.intent)} (not accepted: ${item.reason})`)
	];
	const shown = lines.slice(0, LISTED).map((line) => `• ${line}`);
	if (lines.length > LISTED) shown.push(`• and ${lines.length - LISTED} more`);
	return shown.join('\n');
}

/**
 * Forgets in memory everything shown of an account (after a sign-out, or before another account's
 * first screen): the tree, the open list and article, messages, the badge.
 */
export async function forgetShownAccount(): Promise<void> {
	treeState.reset();
	headlines.reset();
	articleState.close();
	// Each list's view mode and order were the account's choices.
	feedPrefs.reset();
	toasts.reset();
	offlineStatus.reset();
	await setAppBadge(0);
}

/**
 * Signs out and wipes everything of this account kept on this device: the cache, the session,
 * the images, local storage. Its unsent and failed changes would be wiped too, so the reader is
 * shown them and asked first: nothing they did is dropped without their word.
 * Returns false when the reader chose to stay.
 */
export async function signOut(confirmLoss: (message: string) => boolean): Promise<boolean> {
	const account = session.account;
	const { mine } = account
		? await changesByAccount(account)
		: { mine: { pending: [], failed: [] } as Changes };
	const count = mine.pending.length + mine.failed.length;
	if (
		count > 0 &&
		!confirmLoss(
			`${count} ${count === 1 ? 'change has' : 'changes have'} not been saved on the server:\n${listChanges(mine)}\nSigning out deletes ${count === 1 ? 'it' : 'them'} from this device. Sign out anyway?`
		)
	) {
		return false;
	}
	await session.signOut();
	// Settings and the date patterns live in local storage; a signed-out device keeps nothing.
	try {
		localStorage.clear();
	} catch {
		// Storage refused (privacy settings): nothing was kept there either.
	}
	settings.reset();
	await forgetShownAccount();
	return true;
}
