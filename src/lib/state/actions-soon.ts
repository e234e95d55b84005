/**
 * The reader's actions (actions.ts, with the undo and outbox code they bring) for code on the first
 * screen: loaded at the first use, or once the first screen is shown (the app's layout asks), not
 * with it, so the first screen's JavaScript stays within its budget (docs/benchmarks.md).
 */
import { lazyModule } from '$lib/perf/lazy';

export type Actions = typeof import('./actions');

const actions = lazyModule<Actions>(() => import('./actions'));

export const loadActions = actions.load;

/** `setFlag`, loading the actions first: for handlers on the first screen. */
export const setFlagSoon = actions.soon('setFlag');

/** `markBesideRead`, loading the actions first. */
export const markBesideReadSoon = actions.soon('markBesideRead');
