/**
 * Records real replies of one test-bed server into tests/fixtures/recorded/api<level>/*.json, the
 * folder named by the API level the server reports (debian: api15, current: api23). Unit tests read
 * them through `recording()` in tests/support/fake-fetch.ts.
 * Raw HTTP on purpose (not the client module): the recordings are what the server really sends.
 * Session ids are replaced by a placeholder; no password is written. Node's fetch sends
 * `Sec-Fetch-Mode` like a browser, so the current server's browser opt-in applies as in the app.
 *
 * Run (as root, with the test bed up), once per server:
 *   npx rolldown scripts/record-replies.ts --format esm --platform node \
 *       -o .svelte-kit/record/record.mjs \
 *     && flock /tmp/suite.lock flock /tmp/e2e-run.lock node .svelte-kit/record/record.mjs debian
 *   (then the same with `current`). The bundle must sit two folders below the repository root:
 *   tests/support/testbed.ts finds testbed.json from its own address.
 * It resets that server's database before and after, because it calls write ops.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testbedFor, testbedServers, type TestbedServer } from '../tests/support/testbed';

const serverName = process.argv[2] ?? '';
if (!(testbedServers as readonly string[]).includes(serverName)) {
	throw new Error(`usage: record.mjs ${testbedServers.join('|')}`);
}
const server = serverName as TestbedServer;
const testbed = testbedFor(server);
const root = process.cwd();
const PLACEHOLDER_SID = 'RECORDED-SESSION-ID';

interface Recording {
	op: string;
	description: string;
	/** The request body as sent, with the session id and passwords replaced. */
	request: Record<string, unknown> | string;
	/** Request headers other than the JSON Content-Type every client sends, when sent. */
	requestHeaders?: Record<string, string>;
	httpStatus: number;
	contentType: string | null;
	/** The reply parsed as JSON; else its text; an image as `{ base64 }`. */
	reply: unknown;
}

/** Every session id seen (the reader's and the browser-opt-in user's); all are scrubbed. */
const sids: string[] = [];
let sid = '';
let seq = 0;
/** Kept in memory and written at the end, into the folder of the level the server reported. */
const recordings = new Map<string, Recording>();

function scrub(value: unknown): unknown {
	const json = JSON.stringify(value);
	if (json === undefined) return value;
	let text = json;
	for (const secret of sids) text = text.split(secret).join(PLACEHOLDER_SID);
	text = text.replace(/"session_id":"[^"]*"/g, `"session_id":"${PLACEHOLDER_SID}"`);
	const passwords = [
		testbed.password,
		testbed.noApiPassword,
		testbed.secondPassword,
		testbed.noBrowserPassword
	];
	for (const secret of passwords) {
		if (secret) text = text.split(secret).join('RECORDED-PASSWORD');
	}
	return JSON.parse(text) as unknown;
}

async function send(
	body: Record<string, unknown> | string,
	headers: Record<string, string>
): Promise<{ status: number; contentType: string | null; reply: unknown }> {
	const response = await fetch(testbed.apiUrl, {
		method: 'POST',
		headers,
		body: typeof body === 'string' ? body : JSON.stringify(body)
	});
	const contentType = response.headers.get('Content-Type');
	if (contentType?.startsWith('image/')) {
		const bytes = Buffer.from(await response.arrayBuffer());
		return { status: response.status, contentType, reply: { base64: bytes.toString('base64') } };
	}
	const text = await response.text();
	let reply: unknown = text;
	try {
		reply = JSON.parse(text) as unknown;
	} catch {
		// keep the text
	}
	return { status: response.status, contentType, reply };
}

interface RecordOptions {
	/** Send without the reader's session id (default: with it, once logged in). */
	withSid?: boolean;
	/** Send this session id instead of the reader's. */
	sid?: string;
	/** Send this text as the body instead of the JSON object. */
	raw?: string;
	/** Headers instead of `Content-Type: application/json` (recorded as `requestHeaders`). */
	headers?: Record<string, string>;
}

async function record(
	name: string,
	description: string,
	op: string,
	params: Record<string, unknown> = {},
	options: RecordOptions = {}
): Promise<unknown> {
	const body: Record<string, unknown> = { op, ...params, seq: ++seq };
	const useSid = options.sid ?? (options.withSid === false ? '' : sid);
	if (useSid) body.sid = useSid;
	const result = await send(
		options.raw ?? body,
		options.headers ?? { 'Content-Type': 'application/json' }
	);
	recordings.set(name, {
		op,
		description,
		request: scrub(options.raw ?? body) as Recording['request'],
		...(options.headers ? { requestHeaders: options.headers } : {}),
		httpStatus: result.status,
		contentType: result.contentType,
		reply: result.reply
	});
	console.log(`recorded ${name}`);
	return result.reply;
}

function content(reply: unknown): unknown {
	return (reply as { content: unknown }).content;
}

function sessionOf(reply: unknown): string {
	const id = (content(reply) as { session_id?: unknown } | undefined)?.session_id;
	if (typeof id !== 'string' || !id) throw new Error(`no session id in ${JSON.stringify(reply)}`);
	sids.push(id);
	return id;
}

const shellEnv = {
	...process.env,
	TESTBED: server,
	PATH: `${process.env.PATH ?? ''}:/usr/sbin:/sbin`
};

function reset(): void {
	execFileSync('bash', ['testbed/reset.sh', server], {
		cwd: root,
		stdio: 'inherit',
		env: shellEnv
	});
}

function condition(...args: string[]): void {
	execFileSync('bash', ['testbed/condition.sh', ...args], {
		cwd: root,
		stdio: 'inherit',
		env: shellEnv
	});
}

/** The current server refuses a user's login for 5 s after a failed one (AUTH_MIN_INTERVAL). */
const LOGIN_THROTTLE_MS = 5500;

async function main(): Promise<void> {
	reset();

	// Without a session.
	await record('isLoggedIn-no-session', 'isLoggedIn without a session', 'isLoggedIn');
	await record('getVersion-no-session', 'getVersion without a session', 'getVersion');
	await record('logout-no-session', 'logout without a session', 'logout');
	await record('login-wrong-password', 'login with a wrong password', 'login', {
		user: testbed.user,
		password: 'wrong-password'
	});
	const throttled = await record(
		'login-after-failure',
		'login with the right password right after a failed one (current: throttled for 5 s)',
		'login',
		{ user: testbed.user, password: testbed.password }
	);
	if ((throttled as { status?: number }).status === 0) sessionOf(throttled);
	await new Promise((resolve) => setTimeout(resolve, LOGIN_THROTTLE_MS));
	await record('login-api-disabled', 'login of a user with API access off', 'login', {
		user: testbed.noApiUser,
		password: testbed.noApiPassword
	});
	await record(
		'not-json-body',
		'a body that is not JSON (sent as application/json)',
		'garbage',
		{},
		{ raw: 'this is not json' }
	);

	const login = await record('login', `login (${server})`, 'login', {
		user: testbed.user,
		password: testbed.password
	});
	sid = sessionOf(login);

	await record('isLoggedIn', 'isLoggedIn with a session', 'isLoggedIn');
	const level = Number(
		(content(await record('getApiLevel', 'getApiLevel', 'getApiLevel')) as { level: unknown }).level
	);
	if (!Number.isInteger(level)) throw new Error('getApiLevel gave no level');
	await record(
		'not-json-content-type',
		'getApiLevel with a valid session, Content-Type text/plain (current: refused before reading)',
		'getApiLevel',
		{},
		{ headers: { 'Content-Type': 'text/plain' } }
	);
	await record('getVersion', 'getVersion', 'getVersion');
	await record('getConfig', 'getConfig', 'getConfig');
	await record('getPref', 'getPref ENABLE_API_ACCESS', 'getPref', {
		pref_name: 'ENABLE_API_ACCESS'
	});
	await record('getUnread', 'getUnread (total)', 'getUnread');
	await record('getCounters', 'getCounters default output', 'getCounters');
	await record('getCategories', 'getCategories include_empty', 'getCategories', {
		include_empty: true
	});
	await record('getCategories-nested', 'getCategories enable_nested', 'getCategories', {
		enable_nested: true,
		include_empty: true
	});
	const feeds = content(
		await record('getFeeds-all', 'getFeeds cat_id -4 (special feeds, labels, feeds)', 'getFeeds', {
			cat_id: '-4'
		})
	) as { id: number; title: string; cat_id: number }[];
	const tech = content(
		await record('getCategories-flat', 'getCategories without nesting', 'getCategories', {
			enable_nested: false
		})
	) as { id: string | number; title: string }[];
	const techId = tech.find((c) => c.title === 'Tech')?.id;
	await record('getFeeds-nested', 'getFeeds of Tech with include_nested', 'getFeeds', {
		cat_id: String(techId),
		include_nested: true
	});
	await record(
		'getFeedTree',
		'getFeedTree include_empty (counters of ordinary feeds -1)',
		'getFeedTree',
		{
			include_empty: true
		}
	);
	const labels = content(await record('getLabels', 'getLabels', 'getLabels')) as {
		id: number;
		caption: string;
	}[];

	const podcast = feeds.find((f) => f.title.toLowerCase().includes('podcast'));
	await record('getFeedIcon', 'getFeedIcon of the podcast feed (level 19)', 'getFeedIcon', {
		id: String(podcast?.id)
	});
	await record(
		'getHeadlines-podcast',
		'getHeadlines of the podcast feed with attachments, excerpt and content',
		'getHeadlines',
		{
			feed_id: String(podcast?.id),
			limit: '3',
			show_excerpt: true,
			excerpt_length: '60',
			show_content: true,
			include_attachments: true
		}
	);
	const withHeader = content(
		await record(
			'getHeadlines-header',
			'getHeadlines of all articles with include_header, without show_content',
			'getHeadlines',
			{
				feed_id: '-4',
				limit: '5',
				include_header: true
			}
		)
	) as [unknown, { id: number }[]];
	await record(
		'getHeadlines-starred',
		'getHeadlines starred (labels, notes, tags)',
		'getHeadlines',
		{
			feed_id: '-1',
			limit: '10'
		}
	);
	const limit = await record(
		'getHeadlines-limit',
		'getHeadlines asking 500 (ids only kept)',
		'getHeadlines',
		{
			feed_id: '-4',
			limit: '500',
			skip: '0'
		}
	);
	// Keep the large reply small: only count and first item matter.
	const limited = recordings.get('getHeadlines-limit');
	const all = content(limit) as unknown[];
	if (limited) {
		limited.description = `getHeadlines limit 500: the server sent ${all.length} headlines; the recording keeps the first 2`;
		limited.reply = { ...(limit as object), content: all.slice(0, 2) };
	}

	const ids = withHeader[1].slice(0, 2).map((h) => h.id);
	await record('getArticle', 'getArticle of two ids', 'getArticle', { article_id: ids.join(',') });

	// Write ops (the database is reset afterwards).
	const first = String(ids[0]);
	await record('updateArticle', 'updateArticle star', 'updateArticle', {
		article_ids: first,
		mode: '1',
		field: '0'
	});
	await record('updateArticle-bad-field', 'updateArticle with field 9', 'updateArticle', {
		article_ids: first,
		mode: '1',
		field: '9'
	});
	await record('setArticleLabel', 'setArticleLabel assign', 'setArticleLabel', {
		article_ids: first,
		label_id: String(labels[0]?.id),
		assign: true
	});
	await record('catchupFeed', 'catchupFeed mode 2week', 'catchupFeed', {
		feed_id: String(podcast?.id),
		is_cat: false,
		mode: '2week'
	});
	await record('shareToPublished', 'shareToPublished', 'shareToPublished', {
		title: 'Recorded share',
		url: 'http://example.org/recorded',
		content: '<p>Recorded</p>'
	});
	await record('updateFeed', 'updateFeed', 'updateFeed', { feed_id: String(podcast?.id) });
	await record(
		'subscribeToFeed-exists',
		'subscribeToFeed to a feed already there',
		'subscribeToFeed',
		{
			feed_url: `http://${testbed.feedsHost}/feeds/podcast.xml`
		}
	);
	await record('subscribeToFeed-failed', 'subscribeToFeed to a missing URL', 'subscribeToFeed', {
		feed_url: `http://${testbed.feedsHost}/feeds/missing.xml`
	});
	await record('subscribeToFeed-html', 'subscribeToFeed to an HTML page', 'subscribeToFeed', {
		feed_url: `http://${testbed.feedsHost}/`
	});
	await record('unsubscribeFeed', 'unsubscribeFeed of the podcast feed', 'unsubscribeFeed', {
		feed_id: String(podcast?.id)
	});
	await record('subscribeToFeed-added', 'subscribeToFeed adding a feed', 'subscribeToFeed', {
		feed_url: `http://${testbed.feedsHost}/feeds/podcast.xml`,
		category_id: '0'
	});
	await record('unsubscribeFeed-unknown', 'unsubscribeFeed of an unknown feed', 'unsubscribeFeed', {
		feed_id: '999999'
	});
	await record('unknown-op', 'an op the server does not know', 'bogusOperation');

	// A feed that fails to update (its address answers 404): getFeeds (last_error from 23) and
	// getFeedTree (`error`) say so.
	condition('feed-error', 'big.xml');
	await record(
		'getFeeds-feed-error',
		'getFeeds cat_id -4 after the Big Feed failed to update (404)',
		'getFeeds',
		{ cat_id: '-4' }
	);
	await record(
		'getFeedTree-feed-error',
		'getFeedTree after the Big Feed failed to update (404)',
		'getFeedTree',
		{ include_empty: true }
	);
	await record('logout', 'logout', 'logout');

	// Browser API access off (current only): login works, then every browser request is refused.
	if (testbed.noBrowserUser && testbed.noBrowserPassword) {
		const browserOff = await record(
			'login-browser-api-off',
			'login of a user with API access on and browser API access off',
			'login',
			{ user: testbed.noBrowserUser, password: testbed.noBrowserPassword },
			{ withSid: false }
		);
		await record(
			'browser-api-off-call',
			'getApiLevel of that user from a browser (Sec-Fetch-Mode sent): API_DISABLED',
			'getApiLevel',
			{},
			{ sid: sessionOf(browserOff) }
		);
	}

	reset();

	const outDir = join(root, `tests/fixtures/recorded/api${level}`);
	rmSync(outDir, { recursive: true, force: true });
	mkdirSync(outDir, { recursive: true });
	for (const [name, recording] of recordings) {
		const scrubbed = scrub(recording) as Recording;
		writeFileSync(join(outDir, `${name}.json`), JSON.stringify(scrubbed, null, '\t') + '\n');
	}
	console.log(`${recordings.size} recordings of ${server} (API ${level}) in ${outDir}`);
}

await main();
