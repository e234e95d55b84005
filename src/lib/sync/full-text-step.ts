/**
 * The sync's step for full text (issue 59): for the kept articles of the feeds the reader set to
 * "Always show full text" (offline/full-text-feeds.ts), the page through the Reader plugin,
 * extracted in the page's full-text worker (content/full-text-client.ts, passed as `fetch`) and kept in
 * the article's record (cache/kept.ts storeFullText), so those articles read in full offline. Only
 * the page's sync runs this step (state/page-sync.ts, engine.ts `fullText`); the service worker's
 * has no worker and leaves it to the page's next sync: neither this nor Readability is in its
 * bundle. A page that fails is asked again by a later sync; one sync keeps at most
 * FULL_TEXT_PER_SYNC.
 */
import { storeFullText, withoutFullText } from '$lib/cache/kept';
import type { ExtractedArticle } from '$lib/content/extract';
import { fullTextFeeds } from '$lib/offline/full-text-feeds';
import { imageUrls } from '$lib/offline/images';

/** Full texts one sync keeps at most (the rest in the next ones). */
export const FULL_TEXT_PER_SYNC = 200;

export type FetchFullText = (
	pageUrl: string | undefined,
	signal?: AbortSignal
) => Promise<ExtractedArticle>;

/**
 * Keeps the full text of the cached articles of the feeds set to it (newest first); returns the
 * ids kept and the proxied addresses of their images, for the sync to keep with the others.
 */
export async function keepFullTexts(
	account: string,
	options: {
		signal?: AbortSignal | undefined;
		/** The page's full-text worker (content/full-text-client.ts fetchFullText). */
		fetch: FetchFullText;
		now?: () => number;
	}
): Promise<{ ids: number[]; images: string[] }> {
	const kept = { ids: [] as number[], images: [] as string[] };
	const feeds = new Set(await fullTextFeeds(account));
	if (feeds.size === 0) return kept;
	const due = (await withoutFullText(feeds)).slice(0, FULL_TEXT_PER_SYNC);
	for (const { id, pageUrl } of due) {
		options.signal?.throwIfAborted();
		let article: ExtractedArticle;
		try {
			article = await options.fetch(pageUrl, options.signal);
		} catch {
			// Not this time (too large, refused, no article, the server busy): a later sync asks again.
			options.signal?.throwIfAborted();
			continue;
		}
		const keptAt = (options.now ?? Date.now)();
		if (await storeFullText(id, { ...article, keptAt }, { account })) {
			kept.ids.push(id);
			kept.images.push(...imageUrls(article.content, article.url, article.images));
		}
	}
	return kept;
}
