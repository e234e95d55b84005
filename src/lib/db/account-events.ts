/**
 * The page's account events: every singleton that holds something of the signed-in account (the
 * tree, the open list and article, messages, the offline status, …) listens here and forgets it,
 * instead of a hand-kept list of resets in the sign-out. A singleton subscribes where it is made;
 * one whose module was never loaded holds nothing to forget. Emitted by `state/sign-out.ts`: after
 * a sign-out has wiped the device (`signed-out`), and when a sign-in on this page is another
 * account's than the one shown before (`account-changed`). Other tabs are told by the session's
 * own channel and reload.
 */
export type AccountEvent =
	| { type: 'signed-out' }
	| { type: 'account-changed'; /** The account now signed in. */ account: string };

export type AccountListener = (event: AccountEvent) => void | Promise<void>;

const listeners = new Set<AccountListener>();

/** Listens to the account events; returns the function that stops listening. */
export function onAccountEvent(listener: AccountListener): () => void {
	listeners.add(listener);
	return () => listeners.delete(listener);
}

/**
 * Tells every listener, and resolves once all are done. One that fails does not keep the others
 * from forgetting; its error is thrown once all have run.
 */
export async function emitAccountEvent(event: AccountEvent): Promise<void> {
	const results = await Promise.allSettled(
		[...listeners].map(async (listener) => {
			await listener(event);
		})
	);
	const failed = results.find((result) => result.status === 'rejected');
	if (failed) throw failed.reason;
}
