/**
 * Test helpers (used only by the state classes' *.spec.ts): a signed-in page on a fresh IndexedDB,
 * its state modules loaded anew, and a fake tt-rss that answers each op with its recorded reply
 * from tests/fixtures/recorded (the Debian test bed, API level 15).
 */
import { IDBFactory } from 'fake-indexeddb';
import { vi } from 'vitest';
import {
	clone,
	fakeFetch,
	ok,
	recordedContent,
	type SentRequest
} from '$lib/api/testing/fake-fetch';
import { storeSessionFor } from '$lib/db/device';
import { resetReaderDbForTests } from '$lib/db/open';
import type { StoredSession } from '$lib/db/schema';
import { storedSession } from '$lib/db/testing';

/** The session the recordings were made with (level 15: include_header, catch-up modes). */
export const RECORDED_SESSION: StoredSession = storedSession();

/** A recording's content as the server would cut it for one request (see `pagedHeadlines`). */
interface Cut {
	content: unknown;
}

/**
 * Which recording answers an op; a function may pick one, or cut one (`pagedHeadlines`), or none:
 * the request fails.
 */
export type Replies = Record<
	string,
	string | ((request: SentRequest) => string | Cut | undefined | Promise<string | Cut | undefined>)
>;

/**
 * getHeadlines answered from a recording the way the server pages its list: of the recorded rows,
 * in the recorded (server's) order, those `listed` now, above `since_id`, then `skip` and `limit`.
 */
export function pagedHeadlines(
	name: string,
	listed: (id: number) => boolean = () => true
): (request: SentRequest) => Cut {
	return (request) => {
		const [header, rows] = clone(recordedContent(name)) as [object, { id: number }[]];
		const since = Number(request.body.since_id ?? 0);
		const skip = Number(request.body.skip ?? 0);
		const limit = Number(request.body.limit ?? 200);
		const list = rows.filter((row) => listed(row.id) && row.id > since);
		return { content: [header, list.slice(skip, skip + limit)] };
	};
}

/** The server: `replies` names the recording of each op; `hold` keeps an op's answer back. */
export function recordedServer(replies: Replies) {
	const held = new Map<string, Promise<void>>();
	const server = fakeFetch(async (request) => {
		const op = String(request.body.op);
		await held.get(op);
		const reply = replies[op];
		const answer = typeof reply === 'function' ? await reply(request) : reply;
		if (answer === undefined) return undefined;
		return ok(request, typeof answer === 'string' ? recordedContent(answer) : answer.content);
	});
	return {
		...server,
		/** Requests of one op, in the order sent. */
		sent: (op: string) => server.requests.filter((r) => r.body.op === op).map((r) => r.body),
		/** Holds back the answers to `op` until the returned function is called. */
		hold(op: string): () => void {
			let release: () => void = () => undefined;
			held.set(
				op,
				new Promise<void>((resolve) => {
					release = () => {
						held.delete(op);
						resolve();
					};
				})
			);
			return () => release();
		}
	};
}

/** A fresh device signed in with the recorded session; the state modules are loaded anew. */
export async function signedInPage(replies: Replies) {
	globalThis.indexedDB = new IDBFactory();
	resetReaderDbForTests();
	vi.resetModules();
	const server = recordedServer(replies);
	vi.stubGlobal('fetch', server.fetch);
	await storeSessionFor(RECORDED_SESSION);
	const { session } = await import('../session.svelte');
	await session.restore();
	return { server, session };
}
