/**
 * The storage door's named reads for what loads after the first screen (alerts, media, the offline
 * budget, the search index, the replay's books): apart from stores.ts, whose reads the first screen
 * carries, so its JavaScript holds only what it uses.
 */
import { openReaderDb, type ReaderDatabase } from './open';
import type { OutboxItem, StoredArticle } from './schema';

/** Every cached article. */
export async function allStoredArticles(db?: ReaderDatabase): Promise<StoredArticle[]> {
	return (db ?? (await openReaderDb())).getAll('articles');
}

/** The ids of every cached list, list by list. */
export async function storedListIds(): Promise<number[][]> {
	return (await (await openReaderDb()).getAll('lists')).map((list) => list.ids);
}

/** One queued change, while it is still queued. */
export async function outboxItem(seq: number): Promise<OutboxItem | undefined> {
	return (await openReaderDb()).get('outbox', seq);
}

/** What is kept for one enclosure (media/positions.ts parses it). */
export async function storedMediaPosition(url: string): Promise<unknown> {
	return (await openReaderDb()).get('media', url);
}

/** One record of the offline search index (search/indexer.ts knows its shape). */
export async function searchRecord(key: string): Promise<unknown> {
	return (await openReaderDb()).get('search', key);
}

/** The search index's records in `range`. */
export async function searchRecords(range: IDBKeyRange): Promise<unknown[]> {
	return (await openReaderDb()).getAll('search', range);
}
