/**
 * One full-text job, the same wherever it runs (the full-text worker, or in-thread where no worker
 * can be made: the service worker's sync): ask the plugin for the page (api/page.ts), extract the
 * article (extract.ts). Its answer is plain data, as a worker posts it.
 */
import { fetchArticlePage, PageError, type PageProblem } from '$lib/api/page';
import { extractArticle, type ExtractedArticle } from './extract';

/** Why no full text: the page's problems, or `no_article` (a page with no article in it). */
export type FullTextProblem = PageProblem | 'no_article';

export interface FullTextRequest {
	id: number;
	/** The row's signed page address (ArticleBase `pageUrl`). */
	pageUrl: string | undefined;
	/** The app's origin: only a page address there is asked. */
	origin: string;
	/** The API the app talks to: the page is asked of public.php beside it (api/page.ts). */
	apiUrl?: string;
}

export type FullTextAnswer =
	| { id: number; ok: true; article: ExtractedArticle }
	| { id: number; ok: false; problem: FullTextProblem };

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

/** A full text that could not be had, and why (words for it: state/full-text.svelte.ts). */
export class FullTextError extends Error {
	override readonly name = 'FullTextError';
	constructor(readonly problem: FullTextProblem) {
		super(`full text: ${problem}`);
	}
}

/**
 * The job in this thread: where no worker can be made (the service worker's sync). Never imports
 * the worker's module, whose address (`import.meta.url`) a classic service worker cannot evaluate.
 */
export async function fullTextInThread(
	pageUrl: string | undefined,
	signal?: AbortSignal,
	apiUrl?: string
): Promise<ExtractedArticle> {
	const origin = typeof location === 'undefined' ? '' : location.origin;
	const answer = await runFullText(
		{ id: 0, pageUrl, origin, ...(apiUrl ? { apiUrl } : {}) },
		signal
	);
	if (!answer.ok) throw new FullTextError(answer.problem);
	return answer.article;
}
