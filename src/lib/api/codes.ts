/**
 * The API's constants that code outside the client uses (the outbox, the tests): apart from
 * params.ts and transport.ts, so importing them through '$lib/api' does not bring the request code
 * (loaded on demand with the client, state/session.svelte.ts) onto the first screen.
 */

/** updateArticle `field`: 0 starred, 1 published, 2 unread, 3 note, 4 score (level 16+). */
export const ArticleField = { Starred: 0, Published: 1, Unread: 2, Note: 3, Score: 4 } as const;
export type ArticleField = (typeof ArticleField)[keyof typeof ArticleField];

/** updateArticle `mode`: 0 set to false, 1 set to true, 2 toggle (avoid in the outbox). */
export const UpdateMode = { False: 0, True: 1, Toggle: 2 } as const;
export type UpdateMode = (typeof UpdateMode)[keyof typeof UpdateMode];

/** How long one request may take by default (ms). */
export const DEFAULT_TIMEOUT_MS = 20_000;
