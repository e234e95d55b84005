import { describe, expect, it, vi } from 'vitest';
import { caught } from '$support/caught';
import { deriveCapabilities } from './capabilities';
import { TtrssClient, type TtrssClientOptions } from './client';
import { headlinePages, pageHeadlines, type PageHeadlinesOptions } from './paging';
import { ApiError } from './errors';
import { ArticleField, UpdateMode } from './params';
import {
	fail,
	fakeFetch,
	jsonReply,
	ok,
	recordedContent,
	recordedLevels,
	type Handler,
	type SentRequest
} from '$support/fake-fetch';

const API = 'http://tt.example/api/';
const PASSWORD = 'hunter2-secret';

/** A small fake tt-rss: sessions are ids in a set; `routes` answer the ops. */
function fakeServer(
	routes: Record<string, (r: SentRequest) => unknown>,
	options: { apiLevel?: number } = {}
) {
	const sessions = new Set<string>();
	let n = 0;
	const handler: Handler = (r) => {
		const op = String(r.body.op);
		if (op === 'login') {
			if (r.body.password !== undefined && r.body.password !== PASSWORD)
				return fail(r, 'LOGIN_ERROR');
			const sid = `sid-${++n}`;
			sessions.add(sid);
			return ok(r, { session_id: sid, api_level: options.apiLevel ?? 15 });
		}
		if (!sessions.has(String(r.body.sid))) return fail(r, 'NOT_LOGGED_IN', null);
		if (op === 'getApiLevel') return ok(r, { level: options.apiLevel ?? 15 });
		const route = routes[op];
		return route ? ok(r, route(r)) : fail(r, 'UNKNOWN_METHOD');
	};
	const fake = fakeFetch(handler);
	return {
		fake,
		sessions,
		client: (extra: Partial<TtrssClientOptions> = {}) =>
			new TtrssClient({ apiUrl: API, fetch: fake.fetch, ...extra })
	};
}

describe('session', () => {
	it('login sends user and password, keeps the session id and tells the app', async () => {
		const server = fakeServer({});
		const onSessionChange = vi.fn();
		const client = server.client({ onSessionChange });
		const result = await client.login({ user: 'reader', password: PASSWORD });
		expect(result).toEqual({ sessionId: 'sid-1', apiLevel: 15 });
		expect(client.sessionId).toBe('sid-1');
		expect(onSessionChange).toHaveBeenCalledWith('sid-1');
		expect(server.fake.requests[0]?.body).toMatchObject({ user: 'reader', password: PASSWORD });
		expect(client.capabilities?.apiLevel).toBe(15);
	});

	it('single-user mode: login sends no user and no password', async () => {
		const server = fakeServer({});
		await server.client().login();
		const body = server.fake.requests[0]?.body ?? {};
		expect('user' in body).toBe(false);
		expect('password' in body).toBe(false);
	});

	it('logs in again once on NOT_LOGGED_IN when it holds credentials, then retries', async () => {
		const server = fakeServer({ getVersion: () => ({ version: '21.02' }) });
		const credentials = vi.fn(() => ({ user: 'reader', password: PASSWORD }));
		const onSessionChange = vi.fn();
		const client = server.client({ sessionId: 'expired', credentials, onSessionChange });
		await expect(client.getVersion()).resolves.toBe('21.02');
		expect(server.fake.ops()).toEqual(['getVersion', 'login', 'getVersion']);
		expect(credentials).toHaveBeenCalledTimes(1);
		expect(server.fake.requests[2]?.body.sid).toBe('sid-1');
		expect(onSessionChange).toHaveBeenLastCalledWith('sid-1');
	});

	it('works with an async credentials provider', async () => {
		const server = fakeServer({ getVersion: () => ({ version: '21.02' }) });
		const client = server.client({
			credentials: () => Promise.resolve({ user: 'reader', password: PASSWORD })
		});
		await expect(client.getVersion()).resolves.toBe('21.02');
	});

	it('without credentials the caller gets SESSION_ENDED and the session is dropped', async () => {
		const server = fakeServer({ getVersion: () => ({ version: '21.02' }) });
		const onSessionChange = vi.fn();
		const client = server.client({
			sessionId: 'expired',
			credentials: () => null,
			onSessionChange
		});
		const error = await caught(client.getVersion());
		expect(error).toMatchObject({ kind: 'session', code: 'SESSION_ENDED', retryable: false });
		expect(error.userMessage).toMatch(/sign in again/);
		expect(client.sessionId).toBeUndefined();
		expect(onSessionChange).toHaveBeenCalledWith(undefined);
		expect(server.fake.ops()).toEqual(['getVersion']);
	});

	it('retries only once: NOT_LOGGED_IN after the re-login is SESSION_ENDED', async () => {
		const fake = fakeFetch((r) =>
			r.body.op === 'login'
				? ok(r, { session_id: 'fresh', api_level: 15 })
				: fail(r, 'NOT_LOGGED_IN', -1)
		);
		const client = new TtrssClient({
			apiUrl: API,
			fetch: fake.fetch,
			sessionId: 'old',
			credentials: () => ({ user: 'u', password: PASSWORD })
		});
		expect((await caught(client.getVersion())).code).toBe('SESSION_ENDED');
		expect(fake.ops()).toEqual(['getVersion', 'login', 'getVersion']);
	});

	it('a wrong stored password ends the session (SESSION_ENDED caused by LOGIN_ERROR)', async () => {
		const server = fakeServer({ getVersion: () => ({ version: '21.02' }) });
		const client = server.client({ credentials: () => ({ user: 'u', password: 'changed' }) });
		const error = await caught(client.getVersion());
		expect(error.code).toBe('SESSION_ENDED');
		expect((error.cause as ApiError).code).toBe('LOGIN_ERROR');
	});

	it('parallel calls that find the session dead share one re-login', async () => {
		const server = fakeServer({ getVersion: () => ({ version: '21.02' }) });
		const client = server.client({
			sessionId: 'expired',
			credentials: () => ({ user: 'u', password: PASSWORD })
		});
		await Promise.all([client.getVersion(), client.getVersion(), client.getVersion()]);
		expect(server.fake.ops().filter((op) => op === 'login')).toHaveLength(1);
	});

	it('offline during the re-login stays a retryable transport error', async () => {
		const fake = fakeFetch((r) =>
			r.body.op === 'login'
				? Promise.reject(new TypeError('fetch failed'))
				: fail(r, 'NOT_LOGGED_IN', null)
		);
		const client = new TtrssClient({
			apiUrl: API,
			fetch: fake.fetch,
			credentials: () => ({ user: 'u', password: PASSWORD })
		});
		expect(await caught(client.getVersion())).toMatchObject({ code: 'NETWORK', retryable: true });
	});

	it('API_DISABLED at login tells to enable "Enable API access"', async () => {
		const fake = fakeFetch((r) => fail(r, 'API_DISABLED'));
		const client = new TtrssClient({ apiUrl: API, fetch: fake.fetch });
		const error = await caught(client.login({ user: 'noapi', password: PASSWORD }));
		expect(error.code).toBe('API_DISABLED');
		expect(error.userMessage).toMatch(/Enable API access/);
		expect(error.userMessage).not.toMatch(/browser/);
	});

	it('API_DISABLED after a successful login names the browser option as well', async () => {
		const fake = fakeFetch((r) =>
			r.body.op === 'login'
				? ok(r, { session_id: 's', api_level: 23 })
				: fail(r, 'API_DISABLED', r.body.seq as number)
		);
		const client = new TtrssClient({ apiUrl: API, fetch: fake.fetch });
		await client.login({ user: 'u', password: PASSWORD });
		const error = await caught(client.getVersion());
		expect(error.code).toBe('API_DISABLED');
		expect(error.userMessage).toMatch(/Enable API access/);
		expect(error.userMessage).toMatch(/browsers/);
	});

	it('logout clears the session, even when the server had already forgotten it', async () => {
		const fake = fakeFetch((r) => fail(r, 'NOT_LOGGED_IN', null));
		const client = new TtrssClient({ apiUrl: API, fetch: fake.fetch, sessionId: 'gone' });
		await client.logout();
		expect(client.sessionId).toBeUndefined();
		expect(fake.ops()).toEqual(['logout']);
	});

	it('isLoggedIn is false without a session, and asks the server with one', async () => {
		const fake = fakeFetch((r) => ok(r, { status: true }));
		expect(await new TtrssClient({ apiUrl: API, fetch: fake.fetch }).isLoggedIn()).toBe(false);
		const client = new TtrssClient({ apiUrl: API, fetch: fake.fetch, sessionId: 's' });
		expect(await client.isLoggedIn()).toBe(true);
		expect(fake.ops()).toEqual(['isLoggedIn']);
	});

	it('never puts the password or the session id into an error', async () => {
		const sid = 'very-secret-session-id';
		const replies: ((r: SentRequest) => Response | Promise<Response>)[] = [
			(r) => fail(r, 'LOGIN_ERROR'),
			(r) => fail(r, 'NOT_LOGGED_IN', null),
			() => new Response(`<html>${sid} ${PASSWORD}</html>`),
			() => new Response(`not json ${sid} ${PASSWORD}`),
			() => new Response('', { status: 500 }),
			() => Promise.reject(new TypeError(`fetch failed`))
		];
		for (const reply of replies) {
			const fake = fakeFetch(reply);
			const client = new TtrssClient({ apiUrl: API, fetch: fake.fetch, sessionId: sid });
			for (const call of [
				() => client.login({ user: 'u', password: PASSWORD }),
				() => client.getVersion()
			]) {
				const error = await caught(call());
				const seen = JSON.stringify([error.message, error.userMessage, error.details, error.stack]);
				expect(seen).not.toContain(PASSWORD);
				expect(seen).not.toContain(sid);
				expect(fake.requests.every((r) => !r.url.includes(sid))).toBe(true);
			}
		}
	});
});

describe('capabilities', () => {
	it('getApiLevel: a server error means level 0', async () => {
		const fake = fakeFetch((r) => fail(r, 'UNKNOWN_METHOD'));
		const client = new TtrssClient({ apiUrl: API, fetch: fake.fetch, sessionId: 's' });
		expect(await client.getApiLevel()).toBe(0);
	});

	it('getApiLevel: transport errors are not level 0', async () => {
		const fake = fakeFetch(() => new Response('', { status: 502 }));
		const client = new TtrssClient({ apiUrl: API, fetch: fake.fetch, sessionId: 's' });
		expect((await caught(client.getApiLevel())).code).toBe('HTTP_STATUS');
	});

	it('detects once and asks the version only below level 5', async () => {
		const fake = fakeFetch((r) =>
			r.body.op === 'getApiLevel' ? ok(r, { level: 4 }) : ok(r, { version: '1.7.4' })
		);
		const client = new TtrssClient({ apiUrl: API, fetch: fake.fetch, sessionId: 's' });
		const [a, b] = await Promise.all([client.detectCapabilities(), client.detectCapabilities()]);
		expect(a).toBe(b);
		expect(a).toMatchObject({ apiLevel: 4, version: '1.7.4', legacyLabelIds: true });
		expect(fake.ops()).toEqual(['getApiLevel', 'getVersion']);
	});

	it('refuses ops the level does not have with UNSUPPORTED, sending nothing', async () => {
		const fake = fakeFetch((r) => ok(r, {}));
		const client = new TtrssClient({
			apiUrl: API,
			fetch: fake.fetch,
			sessionId: 's',
			capabilities: deriveCapabilities(15)
		});
		expect((await caught(client.getFeedIcon(3))).code).toBe('UNSUPPORTED');
		expect(
			(await caught(client.updateArticle({ articleIds: [1], field: ArticleField.Score, data: 5 })))
				.code
		).toBe('UNSUPPORTED');
		// Tag feeds below 15: "getHeadlines from level 15…" below.
		expect(fake.requests).toHaveLength(0);
	});

	it('getFeedIcon on level 19+ returns the bytes', async () => {
		const fake = fakeFetch(
			() => new Response(new Uint8Array([1, 2, 3]), { headers: { 'Content-Type': 'image/png' } })
		);
		const client = new TtrssClient({
			apiUrl: API,
			fetch: fake.fetch,
			sessionId: 's',
			capabilities: deriveCapabilities(19)
		});
		const icon = await client.getFeedIcon(3);
		expect(icon.contentType).toBe('image/png');
		expect([...new Uint8Array(icon.data)]).toEqual([1, 2, 3]);
		expect(fake.requests[0]?.body).toMatchObject({ op: 'getFeedIcon', id: '3' });
	});

	it('getFeedIcon passes on E_NOT_FOUND', async () => {
		const fake = fakeFetch((r) => fail(r, 'E_NOT_FOUND'));
		const client = new TtrssClient({
			apiUrl: API,
			fetch: fake.fetch,
			sessionId: 's',
			capabilities: deriveCapabilities(23)
		});
		expect((await caught(client.getFeedIcon(3))).code).toBe('E_NOT_FOUND');
	});
});

describe('request parameters', () => {
	function clientAt(level: number, version?: string) {
		const fake = fakeFetch((r) =>
			ok(r, r.body.op === 'getHeadlines' || r.body.op === 'getArticle' ? [] : { status: 'OK' })
		);
		const client = new TtrssClient({
			apiUrl: API,
			fetch: fake.fetch,
			sessionId: 's',
			capabilities: deriveCapabilities(level, version)
		});
		return { fake, client };
	}

	const everything = {
		feedId: -4,
		limit: 500,
		skip: 20,
		filter: 'x',
		isCat: false,
		showExcerpt: true,
		showContent: true,
		viewMode: 'unread',
		includeAttachments: true,
		sinceId: 10,
		includeNested: false,
		orderBy: 'date_reverse',
		sanitize: true,
		forceUpdate: false,
		hasSandbox: true,
		includeHeader: true,
		search: 'q',
		searchMode: 'all_feeds',
		matchOn: 'both',
		checkFirstId: 42
	} as const;

	it('getHeadlines at level 23: numbers quoted, booleans as JSON booleans, every name mapped', async () => {
		const { fake, client } = clientAt(23);
		await client.getHeadlines(everything);
		expect(fake.requests[0]?.body).toEqual({
			op: 'getHeadlines',
			sid: 's',
			seq: 1,
			feed_id: '-4',
			limit: '200',
			skip: '20',
			filter: 'x',
			is_cat: false,
			show_excerpt: true,
			excerpt_length: '100',
			show_content: true,
			view_mode: 'unread',
			include_attachments: true,
			since_id: '10',
			include_nested: false,
			order_by: 'date_reverse',
			sanitize: true,
			force_update: false,
			has_sandbox: true,
			include_header: true,
			search: 'q',
			search_mode: 'all_feeds',
			match_on: 'both',
			check_first_id: '42',
			// Bodies with images through the Reader plugin's signed proxy, where it is installed.
			reader_image_proxy: true
		});
	});

	/** The rows a level-23 server's getHeadlines (with bodies) answered, as the client parses them. */
	async function headlinesOf(rows: unknown[]) {
		const fake = fakeFetch((r) => ok(r, rows));
		const client = new TtrssClient({
			apiUrl: API,
			fetch: fake.fetch,
			sessionId: 's',
			capabilities: deriveCapabilities(23)
		});
		return (await client.getHeadlines({ feedId: -4, showContent: true })).headlines;
	}

	it('keeps the plugin’s signed page address for full text, where it sent one', async () => {
		const page =
			'http://tt.example/public.php?op=pluginhandler&plugin=reader&pmethod=page&uid=2&url=x&sig=ab';
		const [row] = recordedContent('api23', 'getHeadlines-podcast') as Array<
			Record<string, unknown>
		>;
		const rows = [{ ...row, reader_page: page }, { ...row }, { ...row, reader_page: 7 }];
		const headlines = await headlinesOf(rows);
		expect(headlines.map((h) => h.pageUrl)).toEqual([page, undefined, undefined]);
	});

	it('takes the flavor image through the proxy when the server signed it for the row', async () => {
		const proxied =
			'http://tt.example/public.php?op=pluginhandler&plugin=reader&pmethod=image&uid=2&url=x&sig=ab';
		const [row] = recordedContent('api23', 'getHeadlines-podcast') as Array<
			Record<string, unknown>
		>;
		const rows = [
			{
				...row,
				flavor_image: 'http://feeds.test/a.png',
				reader_images: { 'http://feeds.test/a.png': proxied }
			},
			{
				...row,
				flavor_image: 'http://feeds.test/b.png',
				reader_images: { 'http://feeds.test/a.png': proxied }
			},
			{ ...row, flavor_image: 'http://feeds.test/c.png', reader_images: [] },
			{ ...row, flavor_image: 'http://feeds.test/d.png' }
		];
		const headlines = await headlinesOf(rows);
		// Where the plugin signed for the row but not that image, there is none: never its host.
		expect(headlines.map((h) => h.flavorImage)).toEqual([
			proxied,
			undefined,
			undefined,
			'http://feeds.test/d.png'
		]);
		expect(headlines.map((h) => h.signedImages)).toEqual([
			{ 'http://feeds.test/a.png': proxied },
			{ 'http://feeds.test/a.png': proxied },
			{},
			undefined
		]);
	});

	it('learns from replies whether the plugin signs the account’s images, and says when it changes', async () => {
		const [row] = recordedContent('api23', 'getHeadlines-podcast') as Array<
			Record<string, unknown>
		>;
		let reply: unknown[] = [];
		const fake = fakeFetch((r) => ok(r, reply));
		const heard: boolean[] = [];
		const client = new TtrssClient({
			apiUrl: API,
			fetch: fake.fetch,
			sessionId: 's',
			capabilities: deriveCapabilities(23),
			onImageProxy: (on) => heard.push(on)
		});
		expect(client.imageProxy).toBeUndefined();
		// Rows without bodies and without the map say nothing (the current tt-rss runs the
		// plugin's hook only for rows with their bodies).
		reply = [{ ...row, content: undefined }];
		await client.getHeadlines({ feedId: -4 });
		expect(client.imageProxy).toBeUndefined();
		// A row with the map: on (an empty map too: nothing to sign in it).
		reply = [{ ...row, reader_images: [] }];
		await client.getHeadlines({ feedId: -4 });
		expect(client.imageProxy).toBe(true);
		await client.getArticle({ articleIds: [1] });
		// Bodies asked for and none came with the map: off.
		reply = [row];
		await client.getHeadlines({ feedId: -4, showContent: true });
		expect(client.imageProxy).toBe(false);
		expect(heard).toEqual([true, false]);
	});

	it('asks for proxied images with every headlines list (flavor images) and article', async () => {
		const { fake, client } = clientAt(23);
		await client.getHeadlines({ feedId: -4, showContent: false });
		await client.getHeadlines({ feedId: -4 });
		await client.getArticle({ articleIds: [6] });
		expect(fake.requests.map((r) => r.body.reader_image_proxy)).toEqual([true, true, true]);
	});

	it('getHeadlines at level 5 leaves out what the level does not know and caps limit at 60', async () => {
		const { fake, client } = clientAt(5);
		await client.getHeadlines(everything);
		const body = fake.requests[0]?.body ?? {};
		expect(body.limit).toBe('60');
		// order_by arrived with host 1.7.6, which is level 5; search with level 2.
		expect(body).toMatchObject({ order_by: 'date_reverse', search: 'q', search_mode: 'all_feeds' });
		for (const key of [
			'sanitize',
			'force_update',
			'has_sandbox',
			'excerpt_length',
			'include_header',
			'check_first_id'
		]) {
			expect(key in body, key).toBe(false);
		}
		expect(body.show_excerpt).toBe(true);
	});

	it('getHeadlines leaves out order_by below level 5', async () => {
		const { fake, client } = clientAt(4);
		await client.getHeadlines(everything);
		const body = fake.requests[0]?.body ?? {};
		expect('order_by' in body).toBe(false);
		expect(body).toMatchObject({ search: 'q' });
	});

	it('getHeadlines refuses a search below level 2 instead of answering the whole feed', async () => {
		const { fake, client } = clientAt(1);
		const error = await caught(client.getHeadlines(everything));
		expect(error.code).toBe('UNSUPPORTED');
		expect(error.details).toEqual({ needsApiLevel: 2 });
		expect(fake.requests).toHaveLength(0);
		await client.getHeadlines({ feedId: -4, search: '', searchMode: 'all_feeds', matchOn: 'both' });
		const body = fake.requests[0]?.body ?? {};
		for (const key of ['search', 'search_mode', 'match_on']) expect(key in body, key).toBe(false);
	});

	it('updateArticle refuses the note field below level 1, sending nothing', async () => {
		const { fake, client } = clientAt(0);
		const note = { articleIds: [1], field: ArticleField.Note, data: 'hi' } as const;
		expect((await caught(client.updateArticle(note))).code).toBe('UNSUPPORTED');
		await client.updateArticle({ articleIds: [1], field: ArticleField.Starred });
		expect(fake.ops()).toEqual(['updateArticle']);
		const at1 = clientAt(1);
		await at1.client.updateArticle(note);
		expect(at1.fake.requests[0]?.body).toMatchObject({ field: '3', data: 'hi' });
	});

	it('getHeadlines at level 12 sends include_header and check_first_id but not later ones', async () => {
		const { fake, client } = clientAt(12);
		await client.getHeadlines(everything);
		const body = fake.requests[0]?.body ?? {};
		expect(body).toMatchObject({ include_header: true, check_first_id: '42', has_sandbox: true });
	});

	it('getHeadlines from level 15 sends tag feed ids as strings; below, refuses them', async () => {
		const { fake, client } = clientAt(15);
		await client.getHeadlines({ feedId: 'linux' });
		expect(fake.requests[0]?.body.feed_id).toBe('linux');
		const older = clientAt(14);
		await expect(older.client.getHeadlines({ feedId: 'linux' })).rejects.toMatchObject({
			code: 'UNSUPPORTED'
		});
	});

	it('updateArticle: ids joined, numbers quoted', async () => {
		const { fake, client } = clientAt(15);
		await client.updateArticle({
			articleIds: [1, 2],
			field: ArticleField.Note,
			mode: UpdateMode.True,
			data: 'hi'
		});
		expect(fake.requests[0]?.body).toMatchObject({
			article_ids: '1,2',
			field: '3',
			mode: '1',
			data: 'hi'
		});
	});

	it('catchupFeed: is_cat is a JSON boolean; mode from 15; search from 22', async () => {
		const at14 = clientAt(14);
		await at14.client.catchupFeed({ feedId: 3, isCat: false, mode: '1week', searchQuery: 'x' });
		expect(at14.fake.requests[0]?.body).toEqual({
			op: 'catchupFeed',
			sid: 's',
			seq: 1,
			feed_id: '3',
			is_cat: false
		});
		const at15 = clientAt(15);
		await at15.client.catchupFeed({ feedId: 3, isCat: true, mode: '1week', searchQuery: 'x' });
		expect(at15.fake.requests[0]?.body).toMatchObject({ is_cat: true, mode: '1week' });
		expect('search_query' in (at15.fake.requests[0]?.body ?? {})).toBe(false);
		const at22 = clientAt(22);
		await at22.client.catchupFeed({ feedId: 3, searchQuery: 'x', searchLang: 'en' });
		expect(at22.fake.requests[0]?.body).toMatchObject({ search_query: 'x', search_lang: 'en' });
	});

	it('getUnread sends is_cat as a JSON boolean', async () => {
		const fake = fakeFetch((r) => ok(r, { unread: '12' }));
		const client = new TtrssClient({
			apiUrl: API,
			fetch: fake.fetch,
			sessionId: 's',
			capabilities: deriveCapabilities(15)
		});
		expect(await client.getUnread({ feedId: 2, isCat: false })).toBe(12);
		expect(fake.requests[0]?.body).toMatchObject({ feed_id: '2', is_cat: false });
	});

	it('shareToPublished sends sanitize only from level 20', async () => {
		const old = clientAt(15);
		await old.client.shareToPublished({ title: 't', url: 'u', content: 'c', sanitize: false });
		expect('sanitize' in (old.fake.requests[0]?.body ?? {})).toBe(false);
		const recent = clientAt(20);
		await recent.client.shareToPublished({ title: 't', url: 'u', content: 'c', sanitize: false });
		expect(recent.fake.requests[0]?.body).toMatchObject({ sanitize: false });
	});

	it('getArticle sends sanitize only from level 13', async () => {
		const fake = fakeFetch((r) => ok(r, []));
		for (const [level, expected] of [
			[12, false],
			[13, true]
		] as const) {
			const client = new TtrssClient({
				apiUrl: API,
				fetch: fake.fetch,
				sessionId: 's',
				capabilities: deriveCapabilities(level)
			});
			await client.getArticle({ articleIds: [6, 7], sanitize: true });
			const body = fake.requests.at(-1)?.body ?? {};
			expect(body.article_id).toBe('6,7');
			expect('sanitize' in body).toBe(expected);
		}
	});

	it('getCategories / getFeedTree send include_empty only from level 5', async () => {
		const fake = fakeFetch((r) => ok(r, r.body.op === 'getFeedTree' ? { categories: {} } : []));
		const make = (level: number) =>
			new TtrssClient({
				apiUrl: API,
				fetch: fake.fetch,
				sessionId: 's',
				capabilities: deriveCapabilities(level)
			});
		await make(4).getCategories({ includeEmpty: true, enableNested: true });
		expect(fake.requests.at(-1)?.body).toEqual({
			op: 'getCategories',
			sid: 's',
			seq: 1,
			enable_nested: true
		});
		await make(5).getCategories({ includeEmpty: true });
		expect(fake.requests.at(-1)?.body).toMatchObject({ include_empty: true });
		await make(5).getFeedTree({ includeEmpty: true });
		expect(fake.requests.at(-1)?.body).toMatchObject({ include_empty: true });
	});

	it('label ids are converted (-11 - id) for hosts before 1.7.5', async () => {
		const fake = fakeFetch((r) => ok(r, { status: 'OK', updated: 1 }));
		const legacy = new TtrssClient({
			apiUrl: API,
			fetch: fake.fetch,
			sessionId: 's',
			capabilities: deriveCapabilities(2, '1.7.4')
		});
		await legacy.setArticleLabel({ articleIds: [5], labelId: -1026, assign: true });
		expect(fake.requests.at(-1)?.body).toMatchObject({ label_id: '-12', assign: true });
		const modern = new TtrssClient({
			apiUrl: API,
			fetch: fake.fetch,
			sessionId: 's',
			capabilities: deriveCapabilities(15)
		});
		await modern.setArticleLabel({ articleIds: [5], labelId: -1026, assign: false });
		expect(fake.requests.at(-1)?.body).toMatchObject({ label_id: '-1026', assign: false });
	});
});

describe.each(recordedLevels)('has_sandbox recorded with each body (%s replies)', (recorded) => {
	function setup(level: number) {
		const server = fakeServer(
			{
				getHeadlines: () => recordedContent(recorded, 'getHeadlines-podcast'),
				getArticle: () => recordedContent(recorded, 'getArticle')
			},
			{ apiLevel: level }
		);
		return {
			server,
			client: server.client({ sessionId: 'sid-0', capabilities: deriveCapabilities(level) })
		};
	}

	it('getHeadlines marks its headlines with whether has_sandbox went to the server', async () => {
		const { server, client } = setup(15);
		server.sessions.add('sid-0');
		const on = await client.getHeadlines({ feedId: 1, hasSandbox: true });
		expect(on.headlines[0]?.hasSandbox).toBe(true);
		const off = await client.getHeadlines({ feedId: 1 });
		expect(off.headlines[0]?.hasSandbox).toBe(false);
		// Below level 10 the parameter is left out, so the server never kept an iframe for it.
		const old = setup(9);
		old.server.sessions.add('sid-0');
		const below = await old.client.getHeadlines({ feedId: 1, hasSandbox: true });
		expect(below.headlines[0]?.hasSandbox).toBe(false);
	});

	it('getArticle follows the session: the server applies the last getHeadlines flag to it', async () => {
		const { server, client } = setup(15);
		server.sessions.add('sid-0');
		// A session that never sent has_sandbox: the server dropped the iframes.
		expect((await client.getArticle({ articleIds: [6] }))[0]?.hasSandbox).toBe(false);
		await client.getHeadlines({ feedId: 1, hasSandbox: true });
		expect((await client.getArticle({ articleIds: [6] }))[0]?.hasSandbox).toBe(true);
		await client.getHeadlines({ feedId: 1, hasSandbox: false });
		expect((await client.getArticle({ articleIds: [6] }))[0]?.hasSandbox).toBe(false);
	});

	it('a session renewed during getArticle has no has_sandbox flag on the server', async () => {
		const { server } = setup(15);
		const renewing = server.client({
			sessionId: 'sid-0',
			capabilities: deriveCapabilities(15),
			credentials: () => ({ user: 'reader', password: PASSWORD })
		});
		server.sessions.add('sid-0');
		await renewing.getHeadlines({ feedId: 1, hasSandbox: true });
		server.sessions.delete('sid-0');
		const [article] = await renewing.getArticle({ articleIds: [6] });
		expect(server.fake.ops().slice(-3)).toEqual(['getArticle', 'login', 'getArticle']);
		expect(article?.hasSandbox).toBe(false);
	});
});

describe('pageHeadlines', () => {
	function headline(id: number) {
		return { id, title: `h${id}`, unread: true, feed_id: '1', updated: 1 };
	}

	it('pages with skip at the level-5 cap of 60 until a short page', async () => {
		const all = Array.from({ length: 130 }, (_, i) => headline(1000 - i));
		const fake = fakeFetch((r) => {
			const skip = Number(r.body.skip);
			const limit = Number(r.body.limit);
			return ok(r, all.slice(skip, skip + limit));
		});
		const client = new TtrssClient({
			apiUrl: API,
			fetch: fake.fetch,
			sessionId: 's',
			capabilities: deriveCapabilities(5)
		});
		const pages: number[] = [];
		for await (const page of pageHeadlines(client, { feedId: 1 }, { pageSize: 500 })) {
			pages.push(page.length);
		}
		// Each page after the first begins on the row the one before it ended with: 59 new rows.
		expect(pages).toEqual([60, 59, 11]);
		expect(fake.requests.map((r) => r.body.skip)).toEqual(['0', '59', '118']);
	});

	it('restarts from the top when first_id_changed, without yielding an article twice', async () => {
		let items = Array.from({ length: 5 }, (_, i) => headline(100 - i));
		let calls = 0;
		const fake = fakeFetch((r) => {
			calls++;
			const skip = Number(r.body.skip);
			const limit = Number(r.body.limit);
			if (calls === 2) {
				// A new article arrives at the top between the first and second page.
				items = [headline(200), ...items];
			}
			const first = items[0]?.id;
			if (skip > 0 && r.body.check_first_id !== String(first)) {
				return ok(r, [{ id: 1, first_id: first, is_cat: false, first_id_changed: true }, []]);
			}
			return ok(r, [{ id: 1, first_id: first, is_cat: false }, items.slice(skip, skip + limit)]);
		});
		const client = new TtrssClient({
			apiUrl: API,
			fetch: fake.fetch,
			sessionId: 's',
			capabilities: deriveCapabilities(15)
		});
		const ids: number[] = [];
		for await (const page of pageHeadlines(client, { feedId: 1 }, { pageSize: 3 })) {
			ids.push(...page.map((h) => h.id));
		}
		expect(ids.sort()).toEqual([100, 200, 96, 97, 98, 99].sort());
		expect(new Set(ids).size).toBe(ids.length);
		expect(fake.requests[0]?.body).toMatchObject({ include_header: true, skip: '0' });
		expect('check_first_id' in (fake.requests[0]?.body ?? {})).toBe(false);
		expect(fake.requests[1]?.body).toMatchObject({ check_first_id: '100', skip: '2' });
	});
});

describe('headlinePages: the next page asked for while this one is handled', () => {
	function headline(id: number) {
		return { id, title: `h${id}`, unread: true, feed_id: '1', updated: 1 };
	}
	/** A feed of `count` articles (newest first) on a level-15 server; a clock that ticks per read. */
	function pagedServer(
		count: number,
		answer?: (r: SentRequest) => Response | Promise<Response> | undefined
	) {
		let items = Array.from({ length: count }, (_, i) => headline(1000 - i));
		const answerNow = (r: SentRequest): Response => {
			const skip = Number(r.body.skip);
			const first = items[0]?.id;
			if (
				skip > 0 &&
				r.body.check_first_id !== undefined &&
				r.body.check_first_id !== String(first)
			)
				return ok(r, [{ id: 1, first_id: first, is_cat: false, first_id_changed: true }, []]);
			const rows = items.slice(skip, skip + Number(r.body.limit));
			return ok(r, [{ id: 1, first_id: first, is_cat: false }, rows]);
		};
		const fake = fakeFetch((r) => answer?.(r) ?? answerNow(r));
		const client = new TtrssClient({
			apiUrl: API,
			fetch: fake.fetch,
			sessionId: 's',
			capabilities: deriveCapabilities(15)
		});
		let tick = 0;
		return {
			fake,
			client,
			answerNow,
			now: () => ++tick,
			arrive: (id: number) => {
				items = [headline(id), ...items];
			},
			/** Articles that leave the list (read elsewhere). */
			leave: (...ids: number[]) => {
				items = items.filter((h) => !ids.includes(h.id));
			},
			/** An article that comes into the list at `at` (marked unread elsewhere). */
			insert: (at: number, id: number) => {
				items.splice(at, 0, headline(id));
			}
		};
	}

	it('asks for page N+1 before the caller is done with page N; each page dated by its own request', async () => {
		const { fake, client, now } = pagedServer(6);
		const seen: { ids: number[]; askedAt: number; sentBefore: number }[] = [];
		for await (const page of headlinePages(
			client,
			{ feedId: 1 },
			{ pageSize: 3, prefetch: true, now }
		)) {
			// The next full page's request is already out while this one is handled.
			await new Promise((r) => setTimeout(r, 0));
			seen.push({
				ids: page.rows.map((h) => h.id),
				askedAt: page.askedAt,
				sentBefore: fake.requests.length
			});
		}
		// Pages of 3 that overlap by one row (998, 996): the rows each adds.
		expect(seen.map((p) => p.ids)).toEqual([[1000, 999, 998], [997, 996], [995]]);
		expect(seen.map((p) => p.sentBefore)).toEqual([2, 3, 3]);
		// The clock is read as each request starts: 1, 2, 3 (pages in the order asked).
		expect(seen.map((p) => p.askedAt)).toEqual([1, 2, 3]);
		expect(fake.requests.map((r) => r.body.skip)).toEqual(['0', '2', '4']);
	});

	it('without prefetch, the next page is asked for only when the caller wants it', async () => {
		const { fake, client, now } = pagedServer(6);
		const sentBefore: number[] = [];
		for await (const page of headlinePages(client, { feedId: 1 }, { pageSize: 3, now })) {
			await new Promise((r) => setTimeout(r, 0));
			sentBefore.push(fake.requests.length);
			expect(page.askedAt).toBe(fake.requests.length);
		}
		expect(sentBefore).toEqual([1, 2, 3]);
	});

	it('stops at max rows, cutting the last page and asking for nothing beyond it', async () => {
		const { fake, client } = pagedServer(10);
		const ids: number[] = [];
		for await (const page of headlinePages(
			client,
			{ feedId: 1 },
			{ pageSize: 3, prefetch: true, max: 4 }
		))
			ids.push(...page.rows.map((h) => h.id));
		expect(ids).toEqual([1000, 999, 998, 997]);
		expect(fake.requests.map((r) => r.body.skip)).toEqual(['0', '2']);
	});

	it('drops a prefetched page that says the list changed, and restarts from the top', async () => {
		const server = pagedServer(6);
		const { fake, client, now } = server;
		const pages: { ids: number[]; askedAt: number }[] = [];
		for await (const page of headlinePages(
			client,
			{ feedId: 1 },
			{ pageSize: 3, prefetch: true, now }
		)) {
			pages.push({ ids: page.rows.map((h) => h.id), askedAt: page.askedAt });
			// An article arrives while the first page is written, after the prefetched page 2 was
			// answered as the list stood; page 3 is asked for after it.
			await new Promise((r) => setTimeout(r, 0));
			if (pages.length === 1) server.arrive(2000);
		}
		const skips = fake.requests.map(
			(r) =>
				`${String(r.body.skip)}/${typeof r.body.check_first_id === 'string' ? r.body.check_first_id : '-'}`
		);
		// Page 3 (asked for while page 2 was handled) says the list changed: it is dropped and
		// paging restarts from the top; the rows already yielded are not yielded again.
		expect(skips).toEqual(['0/-', '2/1000', '4/1000', '0/-', '2/2000', '4/2000', '6/2000']);
		expect(pages).toEqual([
			{ ids: [1000, 999, 998], askedAt: 1 },
			{ ids: [997, 996], askedAt: 2 },
			// The restart's own requests date its pages (4: the top again, 5, 6; 7 is the overlap
			// row alone, the list's end).
			{ ids: [2000], askedAt: 4 },
			{ ids: [995], askedAt: 6 }
		]);
	});

	it('a first id that flips between tied articles is not a change: no restart, the page asked again', async () => {
		// tt-rss names "the first article" by score, date_entered and updated, with nothing to break a
		// tie: articles fetched together are named one or the other from one request to the next
		// (seen on the test bed's bench data: 11606, then 11607, then 11606). Here the server's pick
		// alternates between the two tied articles at the top at every request.
		let requests = 0;
		const { fake, client } = pagedServer(5, (r) => {
			requests++;
			const pick = requests % 2 === 1 ? 1000 : 999;
			const skip = Number(r.body.skip);
			if (skip > 0 && r.body.check_first_id !== undefined && r.body.check_first_id !== String(pick))
				return ok(r, [{ id: 1, first_id: pick, is_cat: false, first_id_changed: true }, []]);
			const rows = Array.from({ length: 5 }, (_, i) => ({
				id: 1000 - i,
				title: `h${1000 - i}`,
				unread: true,
				feed_id: '1',
				updated: 1
			})).slice(skip, skip + Number(r.body.limit));
			return ok(r, [{ id: 1, first_id: pick, is_cat: false }, rows]);
		});
		const ids: number[] = [];
		for await (const page of headlinePages(client, { feedId: 1 }, { pageSize: 3, prefetch: true }))
			ids.push(...page.rows.map((h) => h.id));
		expect(ids).toEqual([1000, 999, 998, 997, 996]);
		const skips = fake.requests.map(
			(r) =>
				`${String(r.body.skip)}/${typeof r.body.check_first_id === 'string' ? r.body.check_first_id : '-'}`
		);
		// Never back to the top; each flip costs one empty answer, and after three the pages are no
		// longer checked (as after three restarts).
		expect(skips).toEqual(['0/-', '2/1000', '2/999', '2/1000', '2/-', '4/-']);
	});

	it('a first id that names an article not read yet is a change: paging restarts from the top', async () => {
		const server = pagedServer(5);
		const { fake, client } = server;
		const ids: number[] = [];
		for await (const page of headlinePages(client, { feedId: 1 }, { pageSize: 3 })) {
			ids.push(...page.rows.map((h) => h.id));
			// Tied with the others (same score and updated), but new: a real arrival.
			if (ids.length === 3) server.arrive(2000);
		}
		expect(ids).toEqual([1000, 999, 998, 2000, 997, 996]);
		expect(fake.requests.map((r) => r.body.skip)).toEqual(['0', '2', '0', '2', '4']);
	});

	it("a cancelled read ends the prefetched request and throws the signal's reason", async () => {
		const controller = new AbortController();
		let prefetch: AbortSignal | undefined;
		const { client } = pagedServer(10, (r) => {
			if (r.body.skip !== '2') return undefined;
			prefetch = r.init.signal ?? undefined;
			// Never answers by itself: only the abort ends it.
			return new Promise<Response>((_, reject) =>
				prefetch?.addEventListener('abort', () => reject(new Error('aborted')))
			);
		});
		const pages: number[][] = [];
		const reading = (async () => {
			for await (const page of headlinePages(
				client,
				{ feedId: 1 },
				{ pageSize: 3, prefetch: true, signal: controller.signal }
			)) {
				pages.push(page.rows.map((h) => h.id));
				await new Promise((r) => setTimeout(r, 0));
				controller.abort(new Error('signed out'));
			}
		})();
		await expect(reading).rejects.toThrow('signed out');
		expect(pages).toEqual([[1000, 999, 998]]);
		expect(prefetch?.aborted).toBe(true);
	});

	it('a caller that stops early ends the request already out', async () => {
		let prefetch: AbortSignal | undefined;
		const { client } = pagedServer(10, (r) => {
			if (r.body.skip !== '2') return undefined;
			prefetch = r.init.signal ?? undefined;
			return new Promise<Response>((_, reject) =>
				prefetch?.addEventListener('abort', () => reject(new Error('aborted')))
			);
		});
		for await (const page of headlinePages(
			client,
			{ feedId: 1 },
			{ pageSize: 3, prefetch: true }
		)) {
			expect(page.rows).toHaveLength(3);
			await new Promise((r) => setTimeout(r, 0));
			expect(prefetch?.aborted).toBe(false);
			break;
		}
		expect(prefetch?.aborted).toBe(true);
	});

	/** Holds each answer until `release(skip)`; `out()` lists the skips asked for and unanswered. */
	function heldServer(count: number) {
		const held = new Map<string, () => void>();
		const server = pagedServer(count, (r) => {
			const skip = String(r.body.skip);
			return new Promise<Response>((resolve, reject) => {
				r.init.signal?.addEventListener('abort', () => {
					held.delete(skip);
					reject(new Error('aborted'));
				});
				held.set(skip, () => {
					held.delete(skip);
					// The page as the list stands when it is answered.
					resolve(undefined as unknown as Response);
				});
			}).then(() => server.answerNow(r));
		});
		return {
			...server,
			out: () => [...held.keys()],
			release: (skip: number) => held.get(String(skip))?.(),
			/**
			 * Reads every page, two pages of 3 (one row overlapping the page before) out at a time
			 * within `expected` rows: `pages` fills as they come, `done` at the end.
			 */
			read: (expected: number) => {
				const pages: number[][] = [];
				const options: PageHeadlinesOptions = {
					pageSize: 3,
					prefetch: true,
					inFlight: 2,
					expected
				};
				const done = (async () => {
					for await (const page of headlinePages(server.client, { feedId: 1 }, options))
						pages.push(page.rows.map((h) => h.id));
				})();
				return { pages, done };
			}
		};
	}
	/** Lets the answers released so far reach the reader (and its next asks go out). */
	const settle = () => new Promise((r) => setTimeout(r, 0));

	it('with inFlight, asks for two pages at once after the first, and yields them in order', async () => {
		const server = heldServer(12);
		const { out } = server;
		const { pages, done: reading } = server.read(12);
		await settle();
		// The first page alone: the others are checked against the article it names first.
		expect(out()).toEqual(['0']);
		server.release(0);
		await settle();
		expect(out()).toEqual(['2', '4']);
		// The third page answers first: it waits for the second.
		server.release(4);
		await settle();
		expect(pages).toEqual([[1000, 999, 998]]);
		server.release(2);
		await settle();
		expect(pages).toEqual([
			[1000, 999, 998],
			[997, 996],
			[995, 994]
		]);
		expect(out()).toEqual(['6', '8']);
		server.release(8);
		server.release(6);
		await settle();
		expect(out()).toEqual(['10']);
		server.release(10);
		await settle();
		// The short page ends the list; nothing was asked for past the 12 rows expected.
		expect(out()).toEqual([]);
		await reading;
		expect(pages.flat()).toEqual(Array.from({ length: 12 }, (_, i) => 1000 - i));
		expect(
			server.fake.requests.map(
				(r) =>
					`${String(r.body.skip)}/${typeof r.body.check_first_id === 'string' ? r.body.check_first_id : '-'}`
			)
		).toEqual(['0/-', '2/1000', '4/1000', '6/1000', '8/1000', '10/1000']);
	});

	it('with inFlight, a page that says the list changed drops the pages out with it and starts again', async () => {
		const server = heldServer(7);
		const { out } = server;
		const { pages, done: reading } = server.read(7);
		await settle();
		server.release(0);
		await settle();
		expect(out()).toEqual(['2', '4']);
		server.arrive(2000);
		server.release(2);
		await settle();
		// Page 2 said the list changed: page 4, asked for with it, is ended; the top again.
		expect(out()).toEqual(['0']);
		for (const skip of [0, 2, 4, 6, 8]) {
			server.release(skip);
			await settle();
		}
		await reading;
		const ids = pages.flat();
		expect(ids).toEqual([1000, 999, 998, 2000, 997, 996, 995, 994]);
		expect(new Set(ids).size).toBe(ids.length);
	});

	it('with inFlight, a page asked for past a list shorter than expected is ended unanswered', async () => {
		const server = heldServer(9);
		const { out } = server;
		const { done: reading } = server.read(12);
		await settle();
		for (const skip of [0, 2, 4, 6]) {
			server.release(skip);
			await settle();
		}
		expect(out()).toEqual(['8', '10']);
		server.release(8);
		await settle();
		// Page 8 is short: the list ended, and page 10's request was ended, never answered.
		expect(out()).toEqual([]);
		await reading;
		expect(server.fake.requests.map((r) => r.body.skip)).toContain('10');
	});

	it('with inFlight, one page at a time past the rows expected', async () => {
		const server = heldServer(9);
		const { out } = server;
		const { done: reading } = server.read(4);
		await settle();
		server.release(0);
		await settle();
		expect(out()).toEqual(['2']);
		server.release(2);
		await settle();
		// 4 rows expected: the rest one at a time (a later sync's few new rows cost no extra ask).
		expect(out()).toEqual(['4']);
		for (const skip of [4, 6, 8]) {
			server.release(skip);
			await settle();
		}
		await reading;
	});

	it('with inFlight, asks for no page beyond max', async () => {
		const { fake, client } = pagedServer(20);
		const ids: number[] = [];
		for await (const page of headlinePages(
			client,
			{ feedId: 1 },
			{ pageSize: 3, prefetch: true, inFlight: 3, max: 5, expected: 20 }
		))
			ids.push(...page.rows.map((h) => h.id));
		expect(ids).toEqual([1000, 999, 998, 997, 996]);
		expect(fake.requests.map((r) => r.body.skip)).toEqual(['0', '2']);
	});
});

describe('headlinePages: a list that shifts between pages', () => {
	function headline(id: number) {
		return { id, title: `h${id}`, unread: true, feed_id: '1', updated: 1 };
	}
	/**
	 * A level-15 feed of `count` articles, newest first, that `before(request)` may change before
	 * each answer; pages of 20 (one row of them overlapping the page before), one out at a time.
	 */
	async function read(
		count: number,
		before: (skip: number, nth: number, list: ReturnType<typeof listOf>) => void = () => undefined
	) {
		const list = listOf(count);
		let nth = 0;
		const fake = fakeFetch((r) => {
			const skip = Number(r.body.skip);
			before(skip, nth++, list);
			const first = list.items[0]?.id;
			if (
				skip > 0 &&
				r.body.check_first_id !== undefined &&
				r.body.check_first_id !== String(first)
			)
				return ok(r, [{ id: 1, first_id: first, is_cat: false, first_id_changed: true }, []]);
			const rows = list.items.slice(skip, skip + Number(r.body.limit));
			return ok(r, [{ id: 1, first_id: first, is_cat: false }, rows]);
		});
		const client = new TtrssClient({
			apiUrl: API,
			fetch: fake.fetch,
			sessionId: 's',
			capabilities: deriveCapabilities(15)
		});
		const ids: number[] = [];
		let shifted = 0;
		for await (const page of headlinePages(
			client,
			{ feedId: 1 },
			{ pageSize: 20, onShifted: () => shifted++ }
		))
			ids.push(...page.rows.map((h) => h.id));
		return {
			ids,
			shifted,
			/** Each request as `skip+limit`. */
			asked: fake.requests.map((r) => `${String(r.body.skip)}+${String(r.body.limit)}`),
			/** The articles in the list at the end. */
			listed: list.items.map((h) => h.id)
		};
	}
	function listOf(count: number) {
		const list = {
			items: Array.from({ length: count }, (_, i) => headline(1000 - i)),
			leave: (...ids: number[]) => {
				list.items = list.items.filter((h) => !ids.includes(h.id));
			}
		};
		return list;
	}
	/** The articles still in the list that were never read. */
	const missed = (ids: number[], listed: number[]): number[] =>
		listed.filter((id) => !ids.includes(id));
	const range = (from: number, to: number): number[] =>
		Array.from({ length: from - to + 1 }, (_, i) => from - i);

	it('nothing moved: each page starts on the row the one before ended with, and nothing more is asked', async () => {
		const { ids, shifted, asked } = await read(50);
		expect(ids).toEqual(range(1000, 951));
		expect(asked).toEqual(['0+20', '19+20', '38+20']);
		expect(shifted).toBe(0);
	});

	it('two articles read above the boundary: the page after it is bridged, and the row that moved up across it is read', async () => {
		// 995 and 990 leave before the second page: 980 moves up to where the first page ended.
		// Without a check it would never be read (the old pages: skip 20 starts at 978).
		const { ids, shifted, asked, listed } = await read(50, (skip, nth, list) => {
			if (nth === 1) list.leave(995, 990);
		});
		expect(ids).toContain(980);
		expect(missed(ids, listed)).toEqual([]);
		expect(new Set(ids).size).toBe(ids.length);
		// The bridge: 11 rows ending where the second page began, asked before the third page.
		expect(asked).toEqual(['0+20', '19+20', '9+11', '38+20']);
		expect(shifted).toBe(0);
	});

	it('more rows left than the first bridge spans: a second one over the whole stride', async () => {
		const { ids, shifted, asked, listed } = await read(60, (skip, nth, list) => {
			if (nth === 1) list.leave(...range(999, 988));
		});
		expect(missed(ids, listed)).toEqual([]);
		expect(asked.slice(0, 4)).toEqual(['0+20', '19+20', '9+11', '0+20']);
		expect(shifted).toBe(0);
	});

	it('the list ends inside the shift: the empty page after a full one is bridged to the end', async () => {
		// Six articles read: the list is 19 rows; the second page is empty.
		const { ids, shifted, asked, listed } = await read(25, (skip, nth, list) => {
			if (nth === 1) list.leave(...range(995, 990));
		});
		expect(missed(ids, listed)).toEqual([]);
		expect(ids).toContain(976);
		expect(asked).toEqual(['0+20', '19+20', '9+11']);
		expect(shifted).toBe(0);
	});

	it('a list that keeps shifting: after two bridges the page is taken as it is, and onShifted says so once', async () => {
		// Before every request after the first, twelve more articles below the top are read.
		const { shifted, asked } = await read(200, (skip, nth, list) => {
			if (nth > 0) list.leave(...list.items.slice(1, 13).map((h) => h.id));
		});
		expect(shifted).toBe(1);
		// Two bridges (the second from the top: it joins, but the page moved again meanwhile; paging
		// goes on from its last row), then none: a shifting list costs a bounded number of requests.
		expect(asked.slice(0, 5)).toEqual(['0+20', '19+20', '9+11', '0+20', '19+20']);
		expect(asked.slice(5).every((a) => a.endsWith('+20') && !a.startsWith('0+'))).toBe(true);
	});

	it('an article that comes into the list above a boundary: onShifted (it may be missed), no bridge', async () => {
		const { ids, shifted, asked } = await read(50, (skip, nth, list) => {
			if (nth === 1) list.items.splice(5, 0, headline(5000));
		});
		expect(shifted).toBe(1);
		expect(ids).not.toContain(5000);
		expect(asked).toEqual(['0+20', '19+20', '38+20']);
	});

	it('new articles at the top during a bridge: paging starts again from the top, nothing yielded twice', async () => {
		const { ids, shifted, listed } = await read(50, (skip, nth, list) => {
			if (nth === 1) list.leave(995, 990);
			if (nth === 2) list.items.unshift(headline(2000));
		});
		expect(missed(ids, listed)).toEqual([]);
		expect(new Set(ids).size).toBe(ids.length);
		expect(shifted).toBe(0);
	});
});

describe('raw call', () => {
	it('passes a plugin op through and returns its content', async () => {
		const fake = fakeFetch((r) => jsonReply({ seq: r.body.seq, status: 0, content: [1, 2] }));
		const client = new TtrssClient({ apiUrl: API, fetch: fake.fetch, sessionId: 's' });
		expect(await client.call('getCompactHeadlines', { feed_id: '-4' })).toEqual([1, 2]);
	});
});
