/**
 * The reader's actions (actions.ts, with the undo and outbox code they bring) for code on the first
 * screen: loaded at the first use, or once the first screen is shown (the app's layout asks), not
 * with it, so the first screen's JavaScript stays within its budget (docs/benchmarks.md).
 */
export type Actions = typeof import('./actions');

let loading: Promise<Actions> | undefined;

export function loadActions(): Promise<Actions> {
	return (loading ??= import('./actions'));
}

/** `setFlag`, loading the actions first: for handlers on the first screen. */
export const setFlagSoon: Actions['setFlag'] = async (...args) =>
	(await loadActions()).setFlag(...args);

/** `markBesideRead`, loading the actions first. */
export const markBesideReadSoon: Actions['markBesideRead'] = async (...args) =>
	(await loadActions()).markBesideRead(...args);
