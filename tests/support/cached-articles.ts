/** The outbox specs' view of the article cache: put articles there, read one back. */
import { openReaderDb } from '$lib/db/open';
import type { StoredArticle } from '$lib/db/schema';
import { headline } from './factories';

/** Puts articles in the cache as a list the reader had on screen would. */
export async function cacheArticles(
	ids: number[],
	patch: Partial<StoredArticle> = {}
): Promise<void> {
	const db = await openReaderDb();
	for (const id of ids) {
		await db.put('articles', {
			...headline(id),
			comments: '',
			hasContent: false,
			storedAt: 1,
			offline: false,
			...patch
		});
	}
}

/** The cached copy of an article, if any. */
export async function cached(id: number): Promise<StoredArticle | undefined> {
	return (await openReaderDb()).get('articles', id);
}
