/**
 * One full-text job, as the full-text worker runs it (full-text.worker.ts): ask the plugin for the
 * page (api/page.ts), extract the article (extract.ts). Its answer is plain data, as a worker posts
 * it. Only the worker imports this module: Readability is never in the page's main thread nor in
 * the service worker.
 */
import { fetchArticlePage, PageError } from '$lib/api/page';
import { extractArticle } from './extract';
import type { FullTextAnswer, FullTextRequest } from './full-text-error';

export async function runFullText(
	request: FullTextRequest,
	signal?: AbortSignal
): Promise<FullTextAnswer> {
	const { id } = request;
	try {
		const page = await fetchArticlePage(request.pageUrl, {
			origin: request.origin,
			...(request.apiUrl ? { apiUrl: request.apiUrl } : {}),
			...(signal ? { signal } : {})
		});
		const article = extractArticle(page);
		return article ? { id, ok: true, article } : { id, ok: false, problem: 'no_article' };
	} catch (error) {
		// A page the extraction cannot read (too many elements, a parser's failure) has no article.
		return { id, ok: false, problem: error instanceof PageError ? error.problem : 'no_article' };
	}
}
