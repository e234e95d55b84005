/**
 * The typed boundary of the Reader plugin's shared settings (issue 60): replies recorded from the
 * real servers (tests/fixtures/recorded/shared-settings) read as typed items; every bad reply is
 * a clear ApiError; the session id travels in the body only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TtrssClient } from './client';
import { caught } from '$support/caught';
import { fail, fakeFetch, type SentRequest } from '$support/fake-fetch';
import { MAX_REPLY_BYTES } from './transport';
import { parseSharedSettings, pluginAbsent, sharedSettingsUrl } from './shared-settings-op';

const API = 'http://tt.example/tt-rss/api/';
const RECORDED = join(import.meta.dirname, '../../../tests/fixtures/recorded/shared-settings');
const recorded = (name: string): string => readFileSync(join(RECORDED, `${name}.json`), 'utf8');

/** A recorded reply, its seq set to the request's (the recording's was another request's). */
function replay(name: string) {
	return (r: SentRequest): Response => {
		const body = JSON.parse(recorded(name)) as Record<string, unknown>;
		if ('seq' in body && body.seq !== null) body.seq = r.body.seq;
		return new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
	};
}

function clientWith(handler: (r: SentRequest) => Response | Promise<Response>) {
	const fake = fakeFetch(handler);
	const client = new TtrssClient({ apiUrl: API, fetch: fake.fetch, sessionId: 'secret-sid' });
	return { client, fake };
}

describe('sharedSettingsUrl', () => {
	it('is public.php beside the API, for every spelling of the API address', () => {
		const want = 'pmethod=shared_settings';
		expect(sharedSettingsUrl('http://tt.example/tt-rss/api/')).toBe(
			`http://tt.example/tt-rss/public.php?op=pluginhandler&plugin=reader&${want}`
		);
		expect(sharedSettingsUrl('/tt-rss/api')).toBe(
			`/tt-rss/public.php?op=pluginhandler&plugin=reader&${want}`
		);
		expect(sharedSettingsUrl('/api/index.php')).toBe(
			`/public.php?op=pluginhandler&plugin=reader&${want}`
		);
	});
});

describe('the shared settings reply', () => {
	it('reads the real server’s items, with what a change replaced', async () => {
		const { client, fake } = clientWith(replay('debian-items'));
		const reply = await client.sharedSettings({
			'mute.words': { value: '["crypto"]', mtime: 1765100060000 }
		});
		expect(reply.items['mute.words']).toEqual({
			value: '["crypto"]',
			mtime: 1765100060000,
			replaced: { value: '["sponsored","Jürgen"]', mtime: 1765100000000 }
		});
		expect(reply.items['swipe.left']).toEqual({ value: '"star"', mtime: 1765100000000 });
		const [request] = fake.requests;
		expect(request?.url).toBe(sharedSettingsUrl(API));
		expect(request?.url).not.toContain('secret-sid');
		expect(request?.body.sid).toBe('secret-sid');
		expect(request?.body.put).toEqual({
			'mute.words': { value: '["crypto"]', mtime: 1765100060000 }
		});
	});

	it('reads the real server’s empty reply', async () => {
		const { client } = clientWith(replay('debian-empty'));
		expect((await client.sharedSettings()).items).toEqual({});
	});

	it.each(['debian-no-plugin', 'current-no-plugin'])(
		'tells a server without the plugin (%s) apart',
		async (name) => {
			const { client } = clientWith(replay(name));
			const error = await caught(client.sharedSettings());
			expect(pluginAbsent(error)).toBe(true);
		}
	);

	it('an account that has not ticked the plugin: the settings stay on the device', async () => {
		const { client } = clientWith((r) => fail(r, 'PLUGIN_DISABLED'));
		expect(pluginAbsent(await caught(client.sharedSettings()))).toBe(true);
	});

	it.each([
		[
			'an HTML page',
			() => new Response('<!doctype html><html><body>Login</body></html>'),
			'HTML_REPLY'
		],
		['garbage', () => new Response('}{ not json'), 'NOT_JSON'],
		['nothing', () => new Response(''), 'EMPTY_REPLY'],
		['HTTP 404', () => new Response('', { status: 404 }), 'HTTP_STATUS'],
		['HTTP 500', () => new Response('', { status: 500 }), 'HTTP_STATUS'],
		[
			'too large',
			() => new Response('{}', { headers: { 'Content-Length': String(MAX_REPLY_BYTES + 1) } }),
			'REPLY_TOO_LARGE'
		]
	])('%s → %s, not taken for "no plugin"', async (_name, reply, code) => {
		const { client } = clientWith(reply);
		const error = await caught(client.sharedSettings());
		expect(error.code).toBe(code);
		expect(pluginAbsent(error)).toBe(false);
		expect(JSON.stringify([error.message, error.userMessage])).not.toContain('secret-sid');
	});

	it('an error envelope → that error', async () => {
		const { client } = clientWith((r) => fail(r, 'E_OPERATION_FAILED'));
		const error = await caught(client.sharedSettings());
		expect(error).toMatchObject({ kind: 'server', code: 'E_OPERATION_FAILED' });
		expect(pluginAbsent(error)).toBe(false);
	});

	it.each([
		['not an object', 'x'],
		['no items', { now: 1 }],
		['no clock', { items: {} }],
		['a bad key', { items: { 'Bad Key': { value: '1', mtime: 1 } }, now: 1 }],
		['a value that is not text', { items: { 'a.b': { value: 1, mtime: 1 } }, now: 1 }],
		['a bad time', { items: { 'a.b': { value: '1', mtime: '1' } }, now: 1 }],
		['a bad replaced', { items: { 'a.b': { value: '1', mtime: 1, replaced: 'x' } }, now: 1 }],
		[
			'too many items',
			{
				items: Object.fromEntries(
					Array.from({ length: 201 }, (_, i) => [`k${String(i)}`, { value: '1', mtime: 1 }])
				),
				now: 1
			}
		]
	])('a reply with %s → BAD_REPLY', async (_name, content) => {
		const { client } = clientWith((r) => Response.json({ seq: r.body.seq, status: 0, content }));
		expect((await caught(client.sharedSettings())).code).toBe('BAD_REPLY');
	});

	it('parses `[]` (PHP’s empty map) as no items', () => {
		expect(parseSharedSettings({ items: [], now: 5 })).toEqual({ items: {}, now: 5 });
	});
});
