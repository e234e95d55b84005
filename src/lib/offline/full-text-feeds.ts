/**
 * The feeds the reader set to "Always show full text" (issue 59), per account, in IndexedDB's
 * `sync` store: the page's feed settings sheet writes them, and the sync reads them wherever it
 * runs (the page, the service worker, which has no localStorage) to keep those feeds' full text.
 * Wiped with the account like every store of the cache (db/device.ts).
 */
import { getStored, storedKeyFamily, updateStored } from '$lib/db/kv';

/** At most this many feeds (a larger account's choices keep the newest). */
const MAX_FEEDS = 2000;

export const FULL_TEXT_FEEDS = storedKeyFamily<number[]>({
	store: 'sync',
	prefix: 'full-text-feeds:',
	owner: 'offline/full-text-feeds.ts',
	parse: (raw) =>
		Array.isArray(raw) && raw.every((id) => Number.isSafeInteger(id))
			? (raw as number[])
			: undefined,
	fallback: () => []
});

/** The account's feeds set to full text. */
export function fullTextFeeds(account: string): Promise<number[]> {
	return getStored(FULL_TEXT_FEEDS(account));
}

/** Sets one feed to full text, or back. */
export async function setFullTextFeed(account: string, feedId: number, on: boolean): Promise<void> {
	await updateStored(FULL_TEXT_FEEDS(account), (feeds) => {
		const others = feeds.filter((id) => id !== feedId);
		return (on ? [...others, feedId] : others).slice(-MAX_FEEDS);
	});
}
