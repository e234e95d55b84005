/**
 * Records real replies of the test bed's tt-rss server into tests/fixtures/recorded/*.json.
 * Raw HTTP on purpose (not the client module): the recordings are what the server really sends.
 * Session ids are replaced by a placeholder; no password is written.
 *
 * Run (as root, with the test bed up):
 *   npx rolldown scripts/record-replies.ts --format esm --platform node -o /tmp/record.mjs \
 *     && node /tmp/record.mjs
 * It resets the database before and after, because it calls write ops.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface Testbed {
	apiUrl: string;
	user: string;
	password: string;
	noApiUser: string;
	noApiPassword: string;
	feedsHost: string;
}

const root = process.cwd();
const testbed = JSON.parse(readFileSync(join(root, 'testbed/testbed.json'), 'utf8')) as Testbed;
const outDir = join(root, 'tests/fixtures/recorded');
const PLACEHOLDER_SID = 'RECORDED-SESSION-ID';

interface Recording {
	op: string;
	description: string;
	/** The request body as sent, with the session id and passwords replaced. */
	request: Record<string, unknown> | string;
	httpStatus: number;
	contentType: string | null;
	reply: unknown;
}

let sid = '';
let seq = 0;

function scrub(value: unknown): unknown {
	const json = JSON.stringify(value);
	if (json === undefined) return value;
	let text = sid ? json.split(sid).join(PLACEHOLDER_SID) : json;
	text = text.replace(/"session_id":"[^"]*"/g, `"session_id":"${PLACEHOLDER_SID}"`);
	for (const secret of [testbed.password, testbed.noApiPassword]) {
		text = text.split(secret).join('RECORDED-PASSWORD');
	}
	return JSON.parse(text) as unknown;
}

async function send(
	body: Record<string, unknown> | string,
	headers: Record<string, string> = { 'Content-Type': 'application/json' }
): Promise<{ status: number; contentType: string | null; reply: unknown }> {
	const response = await fetch(testbed.apiUrl, {
		method: 'POST',
		headers,
		body: typeof body === 'string' ? body : JSON.stringify(body)
	});
	const text = await response.text();
	let reply: unknown = text;
	try {
		reply = JSON.parse(text) as unknown;
	} catch {
		// keep the text
	}
	return { status: response.status, contentType: response.headers.get('Content-Type'), reply };
}

async function record(
	name: string,
	description: string,
	op: string,
	params: Record<string, unknown> = {},
	options: { withSid?: boolean; raw?: string } = {}
): Promise<unknown> {
	const body: Record<string, unknown> = { op, ...params, seq: ++seq };
	if (options.withSid !== false && sid) body.sid = sid;
	const result = await send(options.raw ?? body);
	const recording: Recording = {
		op,
		description,
		request: scrub(options.raw ?? body) as Recording['request'],
		httpStatus: result.status,
		contentType: result.contentType,
		reply: scrub(result.reply)
	};
	writeFileSync(join(outDir, `${name}.json`), JSON.stringify(recording, null, '\t') + '\n');
	console.log(`recorded ${name}`);
	return result.reply;
}

function content(reply: unknown): unknown {
	return (reply as { content: unknown }).content;
}

function reset(): void {
	execFileSync('bash', ['testbed/reset.sh', 'debian'], { cwd: root, stdio: 'inherit' });
}

async function main(): Promise<void> {
	mkdirSync(outDir, { recursive: true });
	reset();

	// Without a session.
	await record('isLoggedIn-no-session', 'isLoggedIn without a session', 'isLoggedIn');
	await record('getVersion-no-session', 'getVersion without a session', 'getVersion');
	await record('logout-no-session', 'logout without a session', 'logout');
	await record('login-wrong-password', 'login with a wrong password', 'login', {
		user: testbed.user,
		password: 'wrong-password'
	});
	await new Promise((resolve) => setTimeout(resolve, 1500));
	await record('login-api-disabled', 'login of a user with API access off', 'login', {
		user: testbed.noApiUser,
		password: testbed.noApiPassword
	});
	await record(
		'not-json-body',
		'a body that is not JSON',
		'garbage',
		{},
		{ raw: 'this is not json' }
	);

	const login = await record('login', 'login (level 15: no config object)', 'login', {
		user: testbed.user,
		password: testbed.password
	});
	sid = (content(login) as { session_id: string }).session_id;

	await record('isLoggedIn', 'isLoggedIn with a session', 'isLoggedIn');
	await record('getApiLevel', 'getApiLevel', 'getApiLevel');
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
	await record('getFeedTree', 'getFeedTree include_empty', 'getFeedTree', { include_empty: true });
	const labels = content(await record('getLabels', 'getLabels', 'getLabels')) as {
		id: number;
		caption: string;
	}[];

	const podcast = feeds.find((f) => f.title.toLowerCase().includes('podcast'));
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
			'getHeadlines of all articles with include_header',
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
	await record('getHeadlines-limit', 'getHeadlines asking 500 (ids only kept)', 'getHeadlines', {
		feed_id: '-4',
		limit: '500',
		skip: '0'
	});
	// Keep the large reply small: only count and first item matter.
	const limited = JSON.parse(
		readFileSync(join(outDir, 'getHeadlines-limit.json'), 'utf8')
	) as Recording & { reply: { content: unknown[] } };
	limited.description = `getHeadlines limit 500: the server sent ${limited.reply.content.length} headlines; the recording keeps the first 2`;
	limited.reply.content = limited.reply.content.slice(0, 2);
	writeFileSync(
		join(outDir, 'getHeadlines-limit.json'),
		JSON.stringify(limited, null, '\t') + '\n'
	);

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
	await record('logout', 'logout', 'logout');

	reset();
}

await main();
