/**
 * The one part of the start snapshot (snapshot-contract.ts) on a start's path: taking it out of the
 * page once the app's own screen is there. The copying (snapshot.ts) is loaded after that.
 */
import { markOnce } from '$lib/perf/marks';
import { SNAPSHOT_ELEMENT_ID } from './snapshot-contract';

export function releaseSnapshot(): void {
	const snapshot = document.getElementById(SNAPSHOT_ELEMENT_ID);
	if (!snapshot) return;
	snapshot.remove();
	// Tells a test or the bench that this start began with the snapshot on screen.
	markOnce('app:snapshot-released');
}
