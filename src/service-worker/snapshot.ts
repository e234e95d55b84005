/**
 * Serves the start snapshot (src/lib/boot/snapshot-contract.ts): a navigation to the list the app
 * last showed gets the shell with that screen's inert copy inside, so its headlines paint before any
 * JavaScript runs. Any other navigation, or any failure, gets the shell as it is.
 */
import { base } from '$service-worker';
import {
	insertSnapshot,
	parseRootAttributes,
	SNAPSHOT_CACHE,
	SNAPSHOT_FOR_HEADER,
	SNAPSHOT_PATH,
	SNAPSHOT_ROOT_HEADER
} from '$lib/boot/snapshot-contract';

export async function withSnapshot(shell: Response, pathname: string): Promise<Response> {
	try {
		if (!shell.ok || !(await caches.has(SNAPSHOT_CACHE))) return shell;
		const cache = await caches.open(SNAPSHOT_CACHE);
		const snapshot = await cache.match(`${base}${SNAPSHOT_PATH}`);
		const wanted = pathname.replace(/\/$/, '');
		if (!snapshot || snapshot.headers.get(SNAPSHOT_FOR_HEADER)?.replace(/\/$/, '') !== wanted) {
			return shell;
		}
		const [html, body] = await Promise.all([shell.clone().text(), snapshot.text()]);
		const root = parseRootAttributes(snapshot.headers.get(SNAPSHOT_ROOT_HEADER));
		return new Response(insertSnapshot(html, body, root), {
			status: shell.status,
			statusText: shell.statusText,
			headers: shell.headers
		});
	} catch {
		return shell;
	}
}
