/**
 * Test helper (used only by *.spec.ts): a fake tt-rss with several accounts (users on one server,
 * and a second server), real-server reply shapes (tests/fixtures/recorded) and injectable faults,
 * for the model-based outbox test. It keeps each account's articles so the test can compare the
 * server's end state with what the reader meant, and it can lose a reply after applying a change,
 * which the single-account fakeTtrss (fake-server.ts) cannot.
 *
 * Behaviour follows docs of the real server (/work/shared/ttrss-server-notes.md): every reply is
 * HTTP 200 except from a proxy (413) or a crash (502); NOT_LOGGED_IN comes with `seq` null;
 * `updateArticle` counts matched articles; notes are stripped of tags; shares land in Published
 * (feed -2) as new read articles without a feed; `getHeadlines` caps `limit` at 200, newest first.
 * The sync engine's other reads (getCounters, getArticle, getConfig) answer in the recorded shapes
 * (sync-server.ts keeps the single-account fake's).
 */
import { accountOf } from '$lib/db/account';
import {
	fakeFetch,
	fail,
	jsonReply,
	ok,
	recordedContent,
	recording,
	type RecordedLevel,
	type SentRequest
} from './fake-fetch';

/** What one request meets on its way (consumed in order, one per request). */
export type Fault =
	| 'ok'
	| 'network' // the request never reaches the server
	| 'lost' // the server applies it, the reply never arrives
	| 'seq' // the server applies it, the reply comes back with another request's seq (a proxy)
	| 'http413' // a proxy refuses the body
	| 'http502' // the server crashed before doing anything
	| 'expire' // the session ends on the server just before this request
	| 'timeout'; // no answer until the client gives up (the server applied it meanwhile)

export const FAULTS: readonly Fault[] = [
	'network',
	'lost',
	'seq',
	'http413',
	'http502',
	'expire',
	'timeout'
];

export interface ServerArticle {
	id: number;
	/** 0 for shared articles (no feed). */
	feedId: number;
	unread: boolean;
	marked: boolean;
	published: boolean;
	note: string;
	labels: Set<number>;
	title: string;
	link: string;
	/** When the server stored it (ms): what age catch-ups compare against. */
	dateEntered: number;
	/** The article's own date (s). */
	updated: number;
	/**
	 * Which story it tells (the model's truth, never sent): its link unless it is a look-alike
	 * (`lookalikes`) — a generic title, a site's root, one page's #fragment, or one article in two
	 * feeds.
	 */
	story: string;
}

export interface AccountRef {
	apiUrl: string;
	user: string;
	password: string;
}

/** Where a feed lives: feeds 1 and 2 are in category 1. */
export const FEEDS = [1, 2] as const;
export const CATEGORY_OF: Record<number, number> = { 1: 1, 2: 1 };
export const LABELS = [-1025, -1026] as const;
/** Ages (days) of the seeded articles' dates, in turn. */
const SEED_AGES = [20, 10, 3, 0] as const;
const LABEL_CAPTIONS: Record<number, string> = { [-1025]: 'Later', [-1026]: 'Important' };

export interface ModelServerOptions {
	accounts: readonly AccountRef[];
	/** The test-bed server whose recorded headline (getHeadlines-limit.json) rows are cut from. */
	level: RecordedLevel;
	/** The server's clock (ms), shared with the test's clock. */
	now: () => number;
	/** Articles each account starts with, per feed. */
	perFeed?: number;
	/**
	 * Makes the client give up on the request now (its timeout fires): the 'timeout' fault calls
	 * it synchronously as the request starts (timeout-control.ts newestLongTimer).
	 */
	giveUp?: () => (() => void) | undefined;
	/** Offsets each account's article ids (no two accounts then share one). */
	idOffset?: (accountKey: string) => number;
	/** A request this predicate matches is always refused with HTTP 413 (a proxy's body limit). */
	poison?: (request: SentRequest) => boolean;
	/**
	 * Sabotage, to prove the checks can fail: answer OK without applying, apply twice, or apply
	 * in the server's other user's account instead.
	 */
	sabotage?: (request: SentRequest) => 'drop' | 'twice' | 'elsewhere' | undefined;
	/**
	 * Look-alike articles every account starts with besides the seeded ones (issue 55): two feeds'
	 * "Daily digest" of one day (links apart), items of one feed linking to its site's root, one
	 * page's #fragments in two feeds, and one article (one address) in both feeds.
	 */
	lookalikes?: boolean;
	/** Articles of a big feed (BIG_FEED, in no category) every account starts with, all unread. */
	bigFeed?: number;
}

/** A feed in no category, for the sync's pages (`bigFeed`). */
export const BIG_FEED = 3;

/** The look-alikes (`lookalikes`): feed, title, link and the story each truly tells. */
export const LOOKALIKES: readonly { feedId: number; title: string; link: string; story: string }[] =
	[
		{
			feedId: 1,
			title: 'Daily digest',
			link: 'http://one.test/digest/2026-12-01',
			story: 'digest-1'
		},
		{
			feedId: 2,
			title: 'Daily digest',
			link: 'http://two.test/digest/2026-12-01',
			story: 'digest-2'
		},
		{ feedId: 1, title: 'Notes from the week', link: 'http://one.test/', story: 'root-1a' },
		{ feedId: 1, title: 'Notes from the month', link: 'http://one.test/', story: 'root-1b' },
		{ feedId: 1, title: 'Comments', link: 'http://thread.test/item#c1', story: 'c1' },
		{ feedId: 2, title: 'Comments', link: 'http://thread.test/item#c2', story: 'c2' },
		{
			feedId: 1,
			title: 'One story told by two feeds at once',
			link: 'http://news.test/story/42',
			story: 'story-42'
		},
		{
			feedId: 2,
			title: 'One story told by two feeds at once',
			link: 'https://www.news.test/story/42/?utm_source=feed',
			story: 'story-42'
		}
	];

export interface LoggedRequest {
	account: string | undefined;
	op: string;
	fault: Fault;
}

/** The app's own account name (user and absolute API address), as items are stamped with. */
export function accountKey(account: { apiUrl: string; user: string }): string {
	return accountOf(account);
}

type Template = Record<string, unknown>;

/** A request parameter as the server's PHP reads it: a string or a number, else the fallback. */
export function param(value: unknown, fallback = ''): string {
	return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : fallback;
}

export function modelServer(options: ModelServerOptions) {
	const template = (recording(options.level, 'getHeadlines-limit').reply as { content: Template[] })
		.content[0] as Template;
	/** Per account key: its articles by id. */
	const stores = new Map<string, Map<number, ServerArticle>>();
	/** Entry ids are per server and shared by its users (the same feed, the same entry). */
	const nextId = new Map<string, number>();
	const sessions = new Map<string, string>(); // sid → account key
	const faults: Fault[] = [];
	const log: LoggedRequest[] = [];
	const injected = new Map<Fault, number>();
	let sessionCounter = 0;
	const perFeed = options.perFeed ?? 3;

	for (const account of options.accounts) {
		stores.set(accountKey(account), new Map());
		if (!nextId.has(account.apiUrl)) nextId.set(account.apiUrl, 0);
	}
	// The same entries for every user of a server, created in turn feed by feed.
	for (const apiUrl of new Set(options.accounts.map((a) => a.apiUrl))) {
		// Article dates spread over three weeks, so age catch-ups cover some and not others.
		for (const feedId of FEEDS) {
			for (let i = 0; i < perFeed; i++) arrive(apiUrl, feedId, SEED_AGES[i % SEED_AGES.length]);
		}
		for (let i = 0; i < (options.bigFeed ?? 0); i++) arrive(apiUrl, BIG_FEED, 1);
		if (options.lookalikes) {
			for (const look of LOOKALIKES) {
				const entry = arrive(apiUrl, look.feedId, 0);
				for (const key of usersOf(apiUrl)) {
					const a = stores.get(key)?.get(idOf(key, entry));
					if (a) Object.assign(a, { title: look.title, link: look.link, story: look.story });
				}
			}
		}
	}

	function usersOf(apiUrl: string): string[] {
		return options.accounts.filter((a) => a.apiUrl === apiUrl).map(accountKey);
	}

	/** A new entry in a feed (its article dated `ageDays` ago), for every user of that server. */
	function arrive(apiUrl: string, feedId: number, ageDays = 0): number {
		const entry = (nextId.get(apiUrl) ?? 0) + 1;
		nextId.set(apiUrl, entry);
		for (const key of usersOf(apiUrl)) {
			const id = idOf(key, entry);
			stores.get(key)?.set(id, {
				id,
				feedId,
				unread: true,
				marked: false,
				published: false,
				note: '',
				labels: new Set(),
				title: `Article ${id}`,
				link: `http://feeds.test/${feedId}/${id}`,
				dateEntered: options.now(),
				updated: Math.floor(options.now() / 1000) - ageDays * 86_400,
				story: `http://feeds.test/${feedId}/${id}`
			});
		}
		return entry;
	}

	/** An entry's article id in an account (the same for all users unless idOffset says else). */
	function idOf(key: string, entry: number): number {
		return entry + (options.idOffset?.(key) ?? 0);
	}

	function articlesOf(key: string): Map<number, ServerArticle> {
		const store = stores.get(key);
		if (!store) throw new Error(`model server: no account ${key}`);
		return store;
	}

	function inScope(a: ServerArticle, feedId: number, isCat: boolean): boolean {
		if (isCat) return a.feedId !== 0 && CATEGORY_OF[a.feedId] === feedId;
		if (feedId > 0) return a.feedId === feedId;
		if (feedId === -4) return true;
		if (feedId === -1) return a.marked;
		if (feedId === -2) return a.published;
		if (feedId <= -1025) return a.labels.has(feedId);
		return false;
	}

	function headline(a: ServerArticle): Template {
		return {
			...template,
			id: a.id,
			unread: a.unread,
			marked: a.marked,
			published: a.published,
			updated: a.updated,
			title: a.title,
			link: a.link,
			feed_id: a.feedId === 0 ? null : a.feedId,
			feed_title: a.feedId === 0 ? '' : `Feed ${a.feedId}`,
			labels: [...a.labels].map((l) => [l, LABEL_CAPTIONS[l] ?? '', '', '']),
			note: a.note === '' ? null : a.note
		};
	}

	const ids = (r: SentRequest): number[] =>
		param(r.body.article_ids).split(',').filter(Boolean).map(Number);

	/** Applies an op for an account and returns its content, or an error code. */
	function apply(key: string, apiUrl: string, r: SentRequest): unknown {
		const articles = articlesOf(key);
		switch (String(r.body.op)) {
			case 'updateArticle': {
				const field = Number(r.body.field);
				const mode = Number(r.body.mode);
				if (![0, 1, 2, 3].includes(field)) return { error: 'INCORRECT_USAGE' };
				let updated = 0;
				for (const id of ids(r)) {
					const a = articles.get(id);
					if (!a) continue;
					updated++;
					const set = (old: boolean): boolean => (mode === 2 ? !old : mode === 1);
					if (field === 0) a.marked = set(a.marked);
					else if (field === 1) a.published = set(a.published);
					else if (field === 2) a.unread = set(a.unread);
					else a.note = param(r.body.data).replace(/<[^>]*>/g, '');
				}
				return { status: 'OK', updated };
			}
			case 'setArticleLabel': {
				const label = Number(r.body.label_id);
				let updated = 0;
				for (const id of ids(r)) {
					const a = articles.get(id);
					if (!a) continue;
					updated++;
					if (r.body.assign === true) a.labels.add(label);
					else a.labels.delete(label);
				}
				return { status: 'OK', updated };
			}
			case 'catchupFeed': {
				const feedId = Number(r.body.feed_id);
				const isCat = r.body.is_cat === true;
				const age = { '1day': 1, '1week': 7, '2week': 14 }[param(r.body.mode, 'all')];
				const before = age === undefined ? Infinity : options.now() - age * 86_400_000;
				for (const a of articles.values()) {
					if (inScope(a, feedId, isCat) && a.dateEntered < before) a.unread = false;
				}
				return { status: 'OK' };
			}
			case 'shareToPublished': {
				const id = (nextId.get(apiUrl) ?? 0) + 1;
				nextId.set(apiUrl, id);
				articles.set(id, {
					id,
					feedId: 0,
					unread: false,
					marked: false,
					published: true,
					note: '',
					labels: new Set(),
					title: param(r.body.title),
					link: param(r.body.url),
					dateEntered: options.now(),
					updated: Math.floor(options.now() / 1000),
					story: param(r.body.url)
				});
				return { status: 'OK' };
			}
			case 'getHeadlines': {
				const feedId = Number(r.body.feed_id);
				const isCat = r.body.is_cat === true;
				const sinceId = Number(r.body.since_id ?? 0);
				const search = typeof r.body.search === 'string' ? r.body.search.toLowerCase() : '';
				const viewMode = param(r.body.view_mode, 'all_articles');
				const rawLimit = Number(r.body.limit ?? 200);
				const limit = rawLimit === 0 || rawLimit > 200 ? 200 : rawLimit;
				const skip = rawLimit < 0 ? 0 : Number(r.body.skip ?? 0);
				const rows = [...articles.values()]
					.filter((a) => inScope(a, feedId, isCat))
					.filter((a) => a.id > sinceId)
					.filter((a) => search === '' || a.title.toLowerCase().includes(search))
					.filter((a) =>
						viewMode === 'unread'
							? a.unread
							: viewMode === 'marked'
								? a.marked
								: viewMode === 'published'
									? a.published
									: viewMode === 'has_note'
										? a.note !== ''
										: true
					)
					.sort((a, b) =>
						r.body.order_by === 'date_reverse'
							? a.dateEntered - b.dateEntered || a.id - b.id
							: b.dateEntered - a.dateEntered || b.id - a.id
					);
				const page = (rawLimit < 0 ? rows : rows.slice(skip, skip + limit)).map(headline);
				if (r.body.include_header === true) {
					return [{ id: feedId, first_id: rows[0]?.id ?? 0, is_cat: isCat }, page];
				}
				return page;
			}
			case 'getCounters':
				return countersOf([...articles.values()]);
			case 'getConfig':
				return recordedContent(options.level, 'getConfig');
			case 'getArticle': {
				const recorded = (recordedContent(options.level, 'getArticle') as Template[])[0];
				return param(r.body.article_id)
					.split(',')
					.map(Number)
					.flatMap((id) => {
						const a = articles.get(id);
						if (!a) return [];
						return [
							{
								...recorded,
								id,
								title: a.title,
								link: a.link,
								unread: a.unread,
								marked: a.marked,
								published: a.published,
								feed_id: a.feedId === 0 ? null : a.feedId,
								note: a.note === '' ? null : a.note,
								labels: [...a.labels].map((l) => [l, LABEL_CAPTIONS[l] ?? '', '', '']),
								updated: a.updated,
								content: `<p>Body ${id}</p>`
							}
						];
					});
			}
			default:
				return { error: 'UNKNOWN_METHOD', method: String(r.body.op) };
		}
	}

	/** The counters as getCounters sends them (the shapes of sync-server.ts). */
	function countersOf(all: readonly ServerArticle[]): unknown[] {
		const feeds = new Map<number, { unread: number; marked: number; published: number }>();
		for (const a of all) {
			if (a.feedId === 0) continue;
			const f = feeds.get(a.feedId) ?? { unread: 0, marked: 0, published: 0 };
			if (a.unread) f.unread++;
			if (a.marked) f.marked++;
			if (a.published) f.published++;
			feeds.set(a.feedId, f);
		}
		const unread = all.filter((a) => a.unread).length;
		const starred = all.filter((a) => a.marked);
		const published = all.filter((a) => a.published);
		return [
			{ id: 'global-unread', counter: unread },
			{ id: 'subscribed-feeds', counter: feeds.size },
			{ id: 0, counter: 0, auxcounter: 0 },
			{
				id: -1,
				counter: starred.filter((a) => a.unread).length,
				auxcounter: starred.length,
				markedcounter: starred.length
			},
			{
				id: -2,
				counter: published.filter((a) => a.unread).length,
				auxcounter: published.length
			},
			{ id: -4, counter: unread, auxcounter: 0 },
			...[...feeds].map(([id, f]) => ({
				id,
				updated: '12:16',
				counter: f.unread,
				markedcounter: f.marked,
				...(options.level === 'api15'
					? { has_img: 1795367506 }
					: {
							title: `Feed ${id}`,
							error: '',
							publishedcounter: f.published,
							ts: 1795367506
						})
			})),
			{ id: 1, kind: 'cat', counter: unread }
		];
	}

	/** Requests held on their way that reach the server now (`land`): they take no queued fault. */
	const landing = new WeakSet<object>();
	const fake = fakeFetch((r) => {
		const apiUrl = r.url;
		const fault = landing.has(r.init) ? 'ok' : (faults.shift() ?? 'ok');
		// Taken before anything else runs: the newest long timer is this request's timeout.
		const timeoutOf = fault === 'timeout' ? options.giveUp?.() : undefined;
		const sid = typeof r.body.sid === 'string' ? r.body.sid : undefined;
		const key = sid !== undefined ? sessions.get(sid) : undefined;
		log.push({ account: key, op: String(r.body.op), fault });
		if (fault !== 'ok') injected.set(fault, (injected.get(fault) ?? 0) + 1);
		if (fault === 'network') throw new TypeError('Failed to fetch');
		if (fault === 'http502') return new Response('', { status: 502 });
		if (fault === 'http413' || options.poison?.(r)) {
			return new Response('<html><body>413 Request Entity Too Large</body></html>', {
				status: 413,
				headers: { 'Content-Type': 'text/html' }
			});
		}
		if (fault === 'expire' && sid !== undefined) sessions.delete(sid);

		let reply: Response;
		if (r.body.op === 'login') {
			const account = options.accounts.find(
				(a) => a.apiUrl === apiUrl && a.user === r.body.user && a.password === r.body.password
			);
			if (!account) {
				reply = fail(r, 'LOGIN_ERROR');
			} else {
				const newSid = `sid-${++sessionCounter}`;
				sessions.set(newSid, accountKey(account));
				reply = ok(r, { session_id: newSid, api_level: 15 });
			}
		} else if (r.body.op === 'isLoggedIn') {
			reply = ok(r, { status: key !== undefined && key.endsWith(`@${apiUrl}`) });
		} else if (key === undefined || !key.endsWith(`@${apiUrl}`)) {
			reply = fail(r, 'NOT_LOGGED_IN', null);
		} else {
			const sabotage = options.sabotage?.(r);
			if (sabotage === 'twice') apply(key, apiUrl, r);
			const other = usersOf(apiUrl).find((k) => k !== key) ?? key;
			const content =
				sabotage === 'drop'
					? { status: 'OK', updated: 1 }
					: apply(sabotage === 'elsewhere' ? other : key, apiUrl, r);
			const error =
				typeof content === 'object' && content !== null && 'error' in content
					? (content as { error: string })
					: undefined;
			reply = error ? jsonReply({ seq: r.body.seq, status: 1, content: error }) : ok(r, content);
		}
		if (fault === 'lost') throw new TypeError('Failed to fetch');
		if (fault === 'timeout') {
			const fire = timeoutOf;
			return new Promise<Response>((_, reject) => {
				const signal = r.init.signal;
				// Such a request would wait forever: the schedule's harness made a mistake.
				if (!signal)
					throw new Error(
						`model server: a timeout fault on ${String(r.body.op)}, sent without a signal`
					);
				const aborted = (): void =>
					reject(new DOMException('The operation was aborted.', 'AbortError'));
				if (signal.aborted) aborted();
				else signal.addEventListener('abort', aborted, { once: true });
				setImmediate(() => fire?.());
			});
		}
		if (fault === 'seq') {
			return reply
				.json()
				.then((body: Record<string, unknown>) =>
					jsonReply({ ...body, seq: Number(r.body.seq) + 1000 })
				);
		}
		return reply;
	});

	return {
		fetch: fake.fetch,
		requests: fake.requests,
		log,
		injected,
		articles: articlesOf,
		arrive,
		idOf,
		/**
		 * A request held on its way after its sender died reaches the server now. The queued
		 * faults are for the live requests of the schedule's step, not for it: it is applied, and
		 * its answer goes nowhere. (Taking one made a replay's `timeout` fault fall on such a
		 * request, sent without a signal: it never ended — soak seed 532007869, path 733.)
		 */
		land(url: string, init: RequestInit): Promise<Response> {
			landing.add(init);
			return fake.fetch(url, init);
		},
		/** Faults for the next requests, in order. */
		queueFaults(list: readonly Fault[]): void {
			faults.push(...list);
		},
		clearFaults(): void {
			faults.length = 0;
		},
		/** A session for an account, as a sign-in would make (not counted as a request). */
		signIn(account: AccountRef): string {
			const sid = `sid-${++sessionCounter}`;
			sessions.set(sid, accountKey(account));
			return sid;
		},
		/** The server ends every session of this account (expiry, password change). */
		endSessions(key: string): void {
			for (const [sid, owner] of sessions) if (owner === key) sessions.delete(sid);
		}
	};
}

export type ModelServer = ReturnType<typeof modelServer>;
