/**
 * The read of a kept full text (issue 59; the sync keeps them, cache/kept.ts storeFullText): apart
 * from kept.ts, so the article, which reads it first, does not load the sync's writes with it.
 */
import type { KeptFullText } from '$lib/db/schema';
import { storedArticle } from '$lib/db/stores';
import { orMiss } from './cache-reads';

/** An article's kept full text, where the device has one. */
export function keptFullText(id: number): Promise<KeptFullText | undefined> {
	return orMiss(async () => (await storedArticle(id))?.fullText);
}
