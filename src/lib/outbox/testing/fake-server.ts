/**
 * Test helpers (used only by *.spec.ts): a small fake tt-rss that keeps article state, so a test
 * can check the server's end state after a replay, plus a headline factory.
 */
import { deriveCapabilities, TtrssClient, type Headline } from '$lib/api';
import { fail, fakeFetch, ok, type SentRequest } from '$lib/api/testing/fake-fetch';

export interface ServerArticle {
	unread: boolean;
	marked: boolean;
	published: boolean;
	note: string;
	labels: Set<number>;
	feedId: number;
}

export interface FakeServerOptions {
	/** Answer this error (or throw for 'NETWORK') for the request with this index (0-based). */
	/** An error code to answer, or 'NETWORK' to fail like a lost connection. */
	failAt?: (index: number, request: SentRequest) => string | undefined;
	password?: string;
}

export function fakeTtrss(options: FakeServerOptions = {}) {
	const articles = new Map<number, ServerArticle>();
	const sessions = new Set<string>(['sid-0']);
	let logins = 0;
	let index = 0;
	const article = (id: number): ServerArticle => {
		let a = articles.get(id);
		if (!a) {
			a = { unread: true, marked: false, published: false, note: '', labels: new Set(), feedId: 1 };
			articles.set(id, a);
		}
		return a;
	};
	const fake = fakeFetch((r) => {
		const op = String(r.body.op);
		const failure = options.failAt?.(index++, r);
		if (failure === 'NETWORK') throw new TypeError('Failed to fetch');
		if (failure) return fail(r, failure);
		if (op === 'login') {
			if (options.password === undefined || r.body.password !== options.password) {
				return fail(r, 'LOGIN_ERROR');
			}
			const sid = `sid-${++logins}`;
			sessions.add(sid);
			return ok(r, { session_id: sid, api_level: 15 });
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
				for (const a of articles.values()) {
					if (a.feedId === Number(r.body.feed_id) || Number(r.body.feed_id) === -4)
						a.unread = false;
				}
				return ok(r, { status: 'OK' });
			}
			default:
				return fail(r, 'UNKNOWN_METHOD');
		}
	});
	return {
		fake,
		articles,
		article,
		sessions,
		/** Ops sent, login excluded. */
		calls: () => fake.ops().filter((op) => op !== 'login'),
		client: (extra: { withPassword?: boolean } = {}) =>
			new TtrssClient({
				apiUrl: 'http://tt.example/api/',
				fetch: fake.fetch,
				sessionId: 'sid-0',
				capabilities: deriveCapabilities(15),
				credentials: () =>
					extra.withPassword ? { user: 'reader', password: options.password ?? '' } : null
			})
	};
}

export function headline(id: number, patch: Partial<Headline> = {}): Headline {
	return {
		id,
		guid: `g${id}`,
		title: `Article ${id}`,
		link: `http://feeds.test/${id}`,
		unread: true,
		marked: false,
		published: false,
		updated: 1_790_000_000,
		feedId: 1,
		feedTitle: 'Feed 1',
		author: '',
		labels: [],
		attachments: [],
		score: 0,
		note: undefined,
		lang: undefined,
		content: '',
		flavorImage: undefined,
		flavorStream: undefined,
		siteUrl: undefined,
		isUpdated: false,
		tags: [],
		excerpt: undefined,
		commentsCount: 0,
		commentsLink: '',
		alwaysDisplayAttachments: false,
		flavorKind: undefined,
		...patch
	};
}
