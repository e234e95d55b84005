/**
 * The one part of the start snapshot (snapshot-contract.ts) on a start's path: taking it out of the
 * page once the app's own screen is there. The copying (snapshot.ts) is loaded after that.
 */
import { SNAPSHOT_ELEMENT_ID } from './snapshot-contract';

export function releaseSnapshot(): void {
	document.getElementById(SNAPSHOT_ELEMENT_ID)?.remove();
}
