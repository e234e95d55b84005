/**
 * The full-text worker: fetches an article's page through the Reader plugin and extracts it off
 * the main thread, so a tap stays within the interaction budget (issue 59). One job per message;
 * `{cancel: id}` stops a job the reader left.
 */
import type { FullTextRequest } from './full-text-error';
import { runFullText } from './full-text-job';

const scope = self as unknown as {
	onmessage: ((event: MessageEvent<FullTextRequest | { cancel: number }>) => void) | null;
	postMessage(message: unknown): void;
};
const running = new Map<number, AbortController>();

scope.onmessage = (event) => {
	const data = event.data;
	if ('cancel' in data) {
		running.get(data.cancel)?.abort();
		return;
	}
	const controller = new AbortController();
	running.set(data.id, controller);
	void runFullText(data, controller.signal).then((answer) => {
		running.delete(data.id);
		scope.postMessage(answer);
	});
};
