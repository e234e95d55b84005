import { emitAccountEvent, onAccountEvent } from '$lib/db/account-events';
import type { Changes } from '$lib/db/device';
import { m, whenAllMessages } from '$lib/i18n/m';
import type { Intent } from '$lib/outbox/intent';
import { setAppBadge } from '$lib/pwa/badge';
import { session } from './session.svelte';

/** At most this many changes are listed by name in a question; the rest are counted. */
const LISTED = 10;

/**
 * The lines of a question about unsent changes: each change by what it does, failed ones marked.
 * Its words are the later module's (`settings_`): the caller awaits `whenAllMessages` first, and
 * passes `outbox/describe.ts`'s `describeIntent` (loaded only when there is something to list).
 */
export function listChanges(changes: Changes, describeIntent: (intent: Intent) => string): string {
	const lines = [
		...changes.pending.map((item) => describeIntent(item.intent)),
		...changes.failed.map((item) =>
			m.settings_sign_out_not_accepted({ change: describeIntent(item.intent), reason: item.reason })
		)
	];
	const shown = lines.slice(0, LISTED).map((line) => `• ${line}`);
	if (lines.length > LISTED)
		shown.push(`• ${m.settings_sign_out_more({ count: lines.length - LISTED })}`);
	return shown.join('\n');
}

// The app icon's unread count outlives the page: it is no singleton's, so it is cleared here,
// where the account events are sent from (loaded whenever one is).
onAccountEvent(async () => {
	await setAppBadge(0);
});

/**
 * Another account signed in on this page: every singleton that holds something of the one shown
 * before forgets it (db/account-events.ts) before the new account's first screen.
 */
export async function accountChanged(account: string): Promise<void> {
	await emitAccountEvent({ type: 'account-changed', account });
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
		? await import('$lib/db/device').then(({ changesByAccount }) => changesByAccount(account))
		: { mine: { pending: [], failed: [] } as Changes };
	const count = mine.pending.length + mine.failed.length;
	if (count > 0) {
		// The question is in the later module's words (Settings, where signing out is too).
		const [{ describeIntent }] = await Promise.all([
			import('$lib/outbox/describe'),
			whenAllMessages()
		]);
		const list = listChanges(mine, (intent) => describeIntent(intent));
		if (!confirmLoss(m.settings_sign_out_unsaved({ count, list }))) return false;
	}
	await session.signOut();
	// Settings and the date patterns live in local storage; a signed-out device keeps nothing.
	try {
		localStorage.clear();
	} catch {
		// Storage refused (privacy settings): nothing was kept there either.
	}
	// Everything of the account still in memory goes too: the tree, the open list and article,
	// messages, the settings, the badge (each singleton listens, db/account-events.ts).
	await emitAccountEvent({ type: 'signed-out' });
	return true;
}
