/**
 * Named moments of a start, read by `npm run bench` (bench/ collects every performance mark), so a
 * slow start can be split into its parts. Each is marked once per page load.
 */
export type StartMark =
	| 'app:init'
	| 'db:open'
	| 'app:session-restored'
	| 'headlines:cache-read'
	| 'headlines:cache-shown'
	| 'app:first-headline'
	/** The worker's start snapshot was on screen and the app has just taken over from it. */
	| 'app:snapshot-released';

const seen = new Set<StartMark>();

export function markOnce(name: StartMark): void {
	if (seen.has(name) || typeof performance === 'undefined') return;
	seen.add(name);
	performance.mark(name);
}
