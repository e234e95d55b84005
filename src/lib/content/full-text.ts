/**
 * The article's full text (issue 59), asked of the full-text worker (full-text.worker.ts) where
 * workers exist, else in this thread (full-text-job.ts: the service worker, which cannot start
 * one). The worker is made on the first request and kept for the next ones.
 */
import {
	FullTextError,
	runFullText,
	type FullTextAnswer,
	type FullTextRequest
} from './full-text-job';
import type { ExtractedArticle } from './extract';

export type { ExtractedArticle } from './extract';
export { FullTextError, type FullTextProblem } from './full-text-job';

let worker: Worker | undefined;
let nextId = 0;
const waiting = new Map<number, (answer: FullTextAnswer) => void>();

function theWorker(): Worker | undefined {
	if (typeof Worker === 'undefined') return undefined;
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
			// A worker that failed to start or crashed: every job waiting on it has no answer.
			for (const [id, answer] of waiting) answer({ id, ok: false, problem: 'no_article' });
			waiting.clear();
			worker?.terminate();
			worker = undefined;
		};
	}
	return worker;
}

function origin(): string {
	return typeof location === 'undefined' ? '' : location.origin;
}

/** The extracted article of the page the plugin signed (`pageUrl`), or a FullTextError. */
export async function fetchFullText(
	pageUrl: string | undefined,
	signal?: AbortSignal,
	apiUrl?: string
): Promise<ExtractedArticle> {
	const request: FullTextRequest = {
		id: ++nextId,
		pageUrl,
		origin: origin(),
		...(apiUrl ? { apiUrl } : {})
	};
	const target = theWorker();
	const answer = target
		? await new Promise<FullTextAnswer>((resolve) => {
				waiting.set(request.id, resolve);
				signal?.addEventListener(
					'abort',
					() => {
						target.postMessage({ cancel: request.id });
					},
					{ once: true }
				);
				target.postMessage(request);
			})
		: await runFullText(request, signal);
	if (!answer.ok) throw new FullTextError(answer.problem);
	return answer.article;
}
