/**
 * Serves the start snapshot (src/lib/boot/snapshot-contract.ts): a navigation to the list the app
 * last showed gets the shell with that screen's inert copy inside, so its headlines paint before any
 * JavaScript runs. So does a navigation to the start address (`/`), which the app resumes at the
 * place the reader left (state/resume.ts): the page deletes the copy as soon as the reader is
 * anywhere else than that list's top. Any other navigation, or any failure, gets the shell as it is.
 */
import { base } from '$service-worker';
import {
	insertSnapshot,
	parseRootAttributes,
	SNAPSHOT_ACCOUNT_HEADER,
	SNAPSHOT_CACHE,
	SNAPSHOT_FOR_HEADER,
	SNAPSHOT_PATH,
	SNAPSHOT_ROOT_HEADER,
	snapshotServes
} from '$lib/boot/snapshot-contract';
import { keptAccount } from '$lib/db/session';

/**
 * How long a navigation waits for the signed-in account before it gets the plain shell. IndexedDB
 * can hold a read for ever (WebKit after a page closed mid-write, a transaction another tab never
 * ends: docs/engines.md); the navigation must never wait on it, and the page then says so itself.
 */
const ACCOUNT_READ_MS = 250;

function accountWithin(ms: number): Promise<string | undefined> {
	return new Promise((resolve) => {
		const timer = setTimeout(() => resolve(undefined), ms);
		keptAccount().then(
			(account) => {
				clearTimeout(timer);
				resolve(account);
			},
			() => {
				clearTimeout(timer);
				resolve(undefined);
			}
		);
	});
}

export async function withSnapshot(shell: Response, pathname: string): Promise<Response> {
	try {
		if (!shell.ok || !(await caches.has(SNAPSHOT_CACHE))) return shell;
		// The signed-in account is read beside the copy: one small IndexedDB read.
		const [snapshot, account] = await Promise.all([
			caches.open(SNAPSHOT_CACHE).then((cache) => cache.match(`${base}${SNAPSHOT_PATH}`)),
			// Unknown in time: no snapshot (snapshotServes needs the account), the shell at once.
			accountWithin(ACCOUNT_READ_MS)
		]);
		const wanted = pathname.replace(/\/$/, '');
		const shows = snapshot?.headers.get(SNAPSHOT_FOR_HEADER)?.replace(/\/$/, '');
		if (!snapshot || (shows !== wanted && wanted !== base)) {
			return shell;
		}
		// Only the signed-in account's own screen (not one a tab of a signed-out account wrote).
		if (!snapshotServes(snapshot.headers.get(SNAPSHOT_ACCOUNT_HEADER), account)) return shell;
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
