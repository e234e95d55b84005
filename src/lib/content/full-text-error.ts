/**
 * The full-text job's messages and its failure (issue 59), apart from the job itself
 * (full-text-job.ts, which carries Readability): the page's side (full-text.ts, state/, the sync)
 * names them without loading the extraction, which runs only in the full-text worker.
 */
import type { PageProblem } from '$lib/api/page';
import type { ExtractedArticle } from './extract';

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

/** A full text that could not be had, and why (words for it: state/full-text.svelte.ts). */
export class FullTextError extends Error {
	override readonly name = 'FullTextError';
	constructor(readonly problem: FullTextProblem) {
		super(`full text: ${problem}`);
	}
}
