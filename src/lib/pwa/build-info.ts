// What this build is: its release version and the commit it was made from, fixed at build time
// (deploy/build-info.js). Settings → About shows them; a bug report quotes them.

/** The release version, e.g. `1.0.0`. */
export const APP_VERSION: string = __READER_BUILD__.version;

/** The commit id, `unknown` outside a clone, with `-dirty` when built from changed files. */
export const APP_COMMIT: string = __READER_BUILD__.commit;

/** The commit as people quote it: 12 hex digits (and the `-dirty` mark). */
export function shortCommit(commit: string): string {
	return commit.replace(/^([0-9a-f]{12})[0-9a-f]+/, '$1');
}
