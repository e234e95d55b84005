import { treeState } from './tree.svelte';

/**
 * Screen-level hooks the keyboard shortcuts reach: the open headline pane registers how to focus
 * its search field and refresh itself; the layout owns the help dialog.
 */
class Ui {
	helpOpen = $state(false);
	focusSearch: (() => void) | undefined;
	refresh: (() => Promise<void>) | undefined;
	/** Set by the app layout: asks about unsent changes, wipes the device, goes to sign-in. */
	signOut: (() => Promise<void>) | undefined;
}

export const ui = new Ui();

/**
 * Refresh: the tree's counts and the open list (the app bar's button, the r key, a list's pull to
 * refresh). One function for all of them.
 */
export async function refreshAll(): Promise<void> {
	await Promise.all([treeState.load(), ui.refresh?.()]);
}
