/**
 * The article's full text (issue 59), asked of the full-text worker (full-text.worker.ts), the
 * one place the extraction runs: never in the page's main thread, never in the service worker
 * (whose sync leaves full text to the page's: sync/full-text-step.ts). The worker is made on the first
 * request and kept for the next ones. This module carries no extraction: the page loads it when
 * the reader first asks for full text or a sync keeps some (state/, state/sync-triggers.ts).
 */
import {
	FullTextError,
	type FullTextAnswer,
	type FullTextProblem,
	type FullTextRequest
} from './full-text-error';
import type { ExtractedArticle } from './extract';

export type { ExtractedArticle } from './extract';
export { FullTextError, type FullTextProblem } from './full-text-error';

let worker: Worker | undefined;
let nextId = 0;
const waiting = new Map<number, (answer: FullTextAnswer) => void>();

/** Every job still waiting gets this answer (a worker that failed to start or crashed). */
function failAll(problem: FullTextProblem): void {
	for (const [id, answer] of waiting) answer({ id, ok: false, problem });
	waiting.clear();
}

function theWorker(): Worker {
	if (!worker) {
		worker = new Worker(new URL('./full-text.worker.ts', import.meta.url), {
			type: 'module',
			name: 'full-text'
		});
		worker.onmessage = (event: MessageEvent<FullTextAnswer>) => {
			const answer = event.data;
			waiting.get(answer.id)?.(answer);
			waiting.delete(answer.id);
		};
		worker.onerror = () => {
			failAll('no_article');
			worker?.terminate();
			worker = undefined;
		};
	}
	return worker;
}

/** The extracted article of the page the plugin signed (`pageUrl`), or a FullTextError. */
export async function fetchFullText(
	pageUrl: string | undefined,
	signal?: AbortSignal,
	apiUrl?: string
): Promise<ExtractedArticle> {
	// A browser without module workers gets no full text rather than an extraction on its main thread.
	if (typeof Worker === 'undefined') throw new FullTextError('no_article');
	if (signal?.aborted) throw new FullTextError('aborted');
	const request: FullTextRequest = {
		id: ++nextId,
		pageUrl,
		origin: location.origin,
		...(apiUrl ? { apiUrl } : {})
	};
	const target = theWorker();
	const answer = await new Promise<FullTextAnswer>((resolve) => {
		waiting.set(request.id, resolve);
		signal?.addEventListener('abort', () => target.postMessage({ cancel: request.id }), {
			once: true
		});
		target.postMessage(request);
	});
	if (!answer.ok) throw new FullTextError(answer.problem);
	return answer.article;
}
