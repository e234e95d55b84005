/**
 * How long an info toast stays, and so the Undo window (state/undo.svelte.ts `UNDO_MS`): in a
 * module of its own so code outside Svelte's runes (the chaos harness's Undo at the window's
 * edge, tests/chaos/run.ts) reads the same value.
 */
export const TOAST_MS = 5000;
