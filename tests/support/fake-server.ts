/**
 * Test helpers (used only by *.spec.ts): a small fake tt-rss that keeps article state, so a test
 * can check the server's end state after a replay (its rows: factories.ts `headline`).
 */
import { deriveCapabilities } from '$lib/api';
import { TtrssClient } from '$lib/api/client';
import { fail, fakeFetch, ok, recording, type RecordedLevel, type SentRequest } from './fake-fetch';

export interface ServerArticle {
	unread: boolean;
	marked: boolean;
	published: boolean;
	note: string;
	labels: Set<number>;
	feedId: number;
	/** The category of its feed (0: uncategorized), for `is_cat` lists and catch-ups. */
	catId: number;
	title: string;
	link: string;
	/** Article date (unix s), as headlines carry it. */
	updated: number;
}

export interface FakeServerOptions {
	/**
	 * For the request with this index (0-based): an error code to answer, 'NETWORK' to fail like a
	 * lost connection, 'LOST' to do the op and then lose the reply, 'TIMEOUT' to never answer (the
	 * transport's timeout ends it), 'HTTP_413' (any status) for a proxy's error page,
	 * 'SEQ_MISMATCH' for a reply that belongs to another request.
	 */
	failAt?: (index: number, request: SentRequest) => string | undefined;
	password?: string;
	/** The server's API level (15, like the Debian test bed, unless set). */
	apiLevel?: number;
}

/**
 * A headline cut from one the test bed's server sent (tests/fixtures/recorded/<level>/
 * getHeadlines-limit.json): its shape and the fields the tests do not set, with this article's.
 */
function wireHeadline(id: number, a: ServerArticle, level: RecordedLevel): Record<string, unknown> {
	const template = (
		recording(level, 'getHeadlines-limit').reply as { content: Record<string, unknown>[] }
	).content[0];
	return {
		...template,
		id,
		guid: `{"ver":2,"uid":2,"hash":"SHA1:${id}"}`,
		unread: a.unread,
		marked: a.marked,
		published: a.published,
		updated: a.updated,
		is_updated: false,
		title: a.title,
		link: a.link,
		feed_id: a.feedId,
		labels: [],
		feed_title: `Feed ${a.feedId}`,
		note: a.note === '' ? null : a.note,
		content: '',
		flavor_image: '',
		flavor_stream: ''
	};
}

export function fakeTtrss(options: FakeServerOptions = {}) {
	const articles = new Map<number, ServerArticle>();
	const sessions = new Set<string>(['sid-0']);
	let logins = 0;
	let index = 0;
	let shares = 0;
	const level: RecordedLevel = (options.apiLevel ?? 15) >= 23 ? 'api23' : 'api15';
	const article = (id: number): ServerArticle => {
		let a = articles.get(id);
		if (!a) {
			a = {
				unread: true,
				marked: false,
				published: false,
				note: '',
				labels: new Set(),
				feedId: 1,
				catId: 0,
				title: `Article ${id}`,
				link: `http://feeds.test/${id}`,
				updated: 1_790_000_000
			};
			articles.set(id, a);
		}
		return a;
	};
	/** Whether an article is in a getHeadlines/catchupFeed scope (feed, category, special feed). */
	const inScope = (a: ServerArticle, feedId: number, isCat: boolean): boolean => {
		if (isCat) return a.catId === feedId;
		if (feedId === -4) return true;
		if (feedId === -1) return a.marked;
		if (feedId === -2) return a.published;
		return a.feedId === feedId;
	};
	const matches = (a: ServerArticle, search: unknown): boolean =>
		typeof search !== 'string' || search === '' || a.title.includes(search);
	const fake = fakeFetch(async (r) => {
		const failure = options.failAt?.(index++, r);
		if (failure === 'NETWORK') throw new TypeError('Failed to fetch');
		if (failure === 'TIMEOUT') {
			return new Promise<Response>((_resolve, reject) => {
				r.init.signal?.addEventListener('abort', () => reject(new DOMException('', 'AbortError')));
			});
		}
		const status = /^HTTP_(\d+)$/.exec(failure ?? '');
		if (status) {
			return new Response('<html><body>Request Entity Too Large</body></html>', {
				status: Number(status[1]),
				headers: { 'Content-Type': 'text/html' }
			});
		}
		if (failure === 'SEQ_MISMATCH') return ok({ ...r, body: { ...r.body, seq: -2 } }, {});
		if (failure && failure !== 'LOST') return fail(r, failure);
		const reply = answer(r);
		if (failure === 'LOST') throw new TypeError('Failed to fetch');
		return reply;
	});
	const answer = (r: SentRequest): Response => {
		const op = String(r.body.op);
		if (op === 'isLoggedIn') return ok(r, { status: sessions.has(String(r.body.sid)) });
		if (op === 'login') {
			if (options.password === undefined || r.body.password !== options.password) {
				return fail(r, 'LOGIN_ERROR');
			}
			const sid = `sid-${++logins}`;
			sessions.add(sid);
			return ok(r, { session_id: sid, api_level: options.apiLevel ?? 15 });
		}
		if (!sessions.has(String(r.body.sid))) return fail(r, 'NOT_LOGGED_IN', null);
		const ids = (typeof r.body.article_ids === 'string' ? r.body.article_ids : '')
			.split(',')
			.filter(Boolean)
			.map(Number);
		switch (op) {
			case 'updateArticle': {
				const field = Number(r.body.field);
				const on = Number(r.body.mode) === 1;
				for (const id of ids) {
					const a = article(id);
					if (field === 0) a.marked = on;
					else if (field === 1) a.published = on;
					else if (field === 2) a.unread = on;
					else if (field === 3) a.note = typeof r.body.data === 'string' ? r.body.data : '';
				}
				return ok(r, { status: 'OK', updated: ids.length });
			}
			case 'setArticleLabel': {
				for (const id of ids) {
					const labels = article(id).labels;
					if (r.body.assign === true) labels.add(Number(r.body.label_id));
					else labels.delete(Number(r.body.label_id));
				}
				return ok(r, { status: 'OK', updated: ids.length });
			}
			case 'catchupFeed': {
				const feedId = Number(r.body.feed_id);
				for (const a of articles.values()) {
					if (inScope(a, feedId, r.body.is_cat === true) && matches(a, r.body.search_query))
						a.unread = false;
				}
				return ok(r, { status: 'OK' });
			}
			case 'getHeadlines': {
				const feedId = Number(r.body.feed_id);
				const sinceId = Number(r.body.since_id ?? 0);
				const skip = Number(r.body.skip ?? 0);
				const limit = Math.min(Number(r.body.limit ?? 200) || 200, 200);
				const rows = [...articles.entries()]
					.filter(
						([id, a]) =>
							inScope(a, feedId, r.body.is_cat === true) &&
							id > sinceId &&
							(r.body.view_mode !== 'unread' || a.unread) &&
							matches(a, r.body.search)
					)
					// Newest first, like the server's default order.
					.sort(([x], [y]) => y - x);
				const page = rows.slice(skip, skip + limit).map(([id, a]) => wireHeadline(id, a, level));
				if (r.body.include_header !== true) return ok(r, page);
				return ok(r, [
					{ id: feedId, first_id: rows[0]?.[0] ?? 0, is_cat: r.body.is_cat === true },
					page
				]);
			}
			case 'shareToPublished': {
				const id = Math.max(0, ...articles.keys()) + 1;
				Object.assign(article(id), {
					published: true,
					feedId: 0,
					title: String(r.body.title),
					link: String(r.body.url),
					updated: Math.floor(Date.now() / 1000)
				});
				shares++;
				return ok(r, { status: 'OK' });
			}
			default:
				return fail(r, 'UNKNOWN_METHOD');
		}
	};
	return {
		fake,
		articles,
		article,
		sessions,
		/** How many shares the server stored (a resent share counts again, like on tt-rss). */
		shares: () => shares,
		/** Ops sent, login excluded. */
		calls: () => fake.ops().filter((op) => op !== 'login'),
		client: (extra: { withPassword?: boolean; timeoutMs?: number } = {}) =>
			new TtrssClient({
				apiUrl: 'http://tt.example/api/',
				fetch: fake.fetch,
				...(extra.timeoutMs !== undefined ? { timeoutMs: extra.timeoutMs } : {}),
				sessionId: 'sid-0',
				capabilities: deriveCapabilities(options.apiLevel ?? 15),
				credentials: () =>
					extra.withPassword ? { user: 'reader', password: options.password ?? '' } : null
			})
	};
}
