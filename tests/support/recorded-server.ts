/**
 * Test helpers (used only by the state classes' *.spec.ts): a signed-in page on a fresh IndexedDB,
 * its state modules loaded anew, and a fake tt-rss that answers each op with its recorded reply
 * from tests/fixtures/recorded/<level> (the test bed's Debian server, api15, or current one, api23).
 */
import { IDBFactory } from 'fake-indexeddb';
import { vi } from 'vitest';
import {
	fakeFetch,
	levelOf,
	ok,
	recordedContent,
	type RecordedLevel,
	type SentRequest
} from './fake-fetch';
import { storeSessionFor } from '$lib/db/device';
import { resetReaderDbForTests } from '$lib/db/open';
import type { StoredSession } from '$lib/db/schema';
import { storedSession } from './factories';

/** The session the recordings of `level` were made with (its API level). */
export function recordedSession(level: RecordedLevel): StoredSession {
	return storedSession({ apiLevel: levelOf(level) });
}

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
	level: RecordedLevel,
	name: string,
	listed: (id: number) => boolean = () => true
): (request: SentRequest) => Cut {
	return (request) => {
		const [header, rows] = recordedContent(level, name) as [object, { id: number }[]];
		const since = Number(request.body.since_id ?? 0);
		const skip = Number(request.body.skip ?? 0);
		const limit = Number(request.body.limit ?? 200);
		const list = rows.filter((row) => listed(row.id) && row.id > since);
		return { content: [header, list.slice(skip, skip + limit)] };
	};
}

/**
 * The server: `replies` names the recording (of `level`) of each op; `hold` keeps an op's answer
 * back.
 */
export function recordedServer(replies: Replies, level: RecordedLevel) {
	const held = new Map<string, Promise<void>>();
	const server = fakeFetch(async (request) => {
		const op = String(request.body.op);
		await held.get(op);
		const reply = replies[op];
		const answer = typeof reply === 'function' ? await reply(request) : reply;
		if (answer === undefined) return undefined;
		if (typeof answer !== 'string') return ok(request, answer.content);
		const content = recordedContent(level, answer);
		if (op !== 'getArticle' || !Array.isArray(content)) return ok(request, content);
		// As the server does: only the articles asked for (unknown ids dropped).
		const asked = String(request.body.article_id).split(',').map(Number);
		return ok(
			request,
			(content as { id: number }[]).filter((a) => asked.includes(a.id))
		);
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

/**
 * A fresh device signed in with the session `level` was recorded with; the state modules are
 * loaded anew.
 */
export async function signedInPage(replies: Replies, level: RecordedLevel) {
	globalThis.indexedDB = new IDBFactory();
	resetReaderDbForTests();
	vi.resetModules();
	const server = recordedServer(replies, level);
	vi.stubGlobal('fetch', server.fetch);
	await storeSessionFor(recordedSession(level));
	const { session } = await import('$lib/state/session.svelte');
	await session.restore();
	return { server, session };
}

/**
 * All articles as `getHeadlines-header` recorded them (the first five, in the server's order;
 * the two servers store the same seed under other ids and order two of them differently): the
 * ids in list order, and each article's id by what it is.
 */
export function recordedRows(level: RecordedLevel) {
	const [, rows] = recordedContent(level, 'getHeadlines-header') as [
		object,
		{ id: number; title: string }[]
	];
	const idOf = (title: string): number => {
		const row = rows.find((r) => r.title.startsWith(title));
		if (!row) throw new Error(`no "${title}" in ${level}/getHeadlines-header`);
		return row.id;
	};
	return {
		ids: rows.map((r) => r.id),
		/** Big feed item 001: feed 6 (Uncategorized), starred, unread. */
		big1: idOf('Big feed item 001'),
		/** Script tags: feed 5 (Uncategorized). */
		script: idOf('Script tags'),
		/** Big feed item 002: feed 6. */
		big2: idOf('Big feed item 002'),
		/** The Japanese article: feed 3 (World). */
		japanese: idOf('日本語'),
		/** Episode 1: feed 4 (World), with an enclosure. */
		episode: idOf('Episode 1')
	};
}
