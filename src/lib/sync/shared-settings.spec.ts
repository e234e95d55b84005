/**
 * The sync's step for the settings kept by the plugin (issue 60): the device's copy follows the
 * server's items with this device's queued changes on top; a server without the plugin makes it
 * "device only"; a failure that is not the plugin's absence leaves the copy as it was.
 */
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { TtrssClient } from '$lib/api/client';
import { fail, fakeFetch, type SentRequest } from '$support/fake-fetch';
import { resetReaderDbForTests } from '$lib/db/open';
import { TEST_ACCOUNT } from '$support/factories';
import { ownCacheForTests } from '$support/own-cache';
import { enqueueIntent } from '$lib/outbox/enqueue';
import { ABSENT_RECHECK_MS, sharedCopy, syncSharedSettings } from './shared-settings';

const RECORDED = join(import.meta.dirname, '../../../tests/fixtures/recorded/shared-settings');
const API = 'http://tt.example/tt-rss/api/';

beforeEach(() => {
	globalThis.indexedDB = new IDBFactory();
	resetReaderDbForTests();
});

/** A client whose plugin method answers with a recorded reply (its seq set to the request's). */
function clientReplying(handler: (r: SentRequest) => Response) {
	const fake = fakeFetch(handler);
	return new TtrssClient({ apiUrl: API, fetch: fake.fetch, sessionId: 's' });
}
const recorded = (name: string) => (r: SentRequest) => {
	const body = JSON.parse(readFileSync(join(RECORDED, `${name}.json`), 'utf8')) as {
		seq?: unknown;
	};
	if ('seq' in body) body.seq = r.body.seq;
	return Response.json(body);
};

describe('syncSharedSettings', () => {
	it('keeps the server’s items, with a change still queued here on top when it is later', async () => {
		await ownCacheForTests();
		const account = TEST_ACCOUNT;
		// Queued offline here: later than the server's swipe, earlier than its muted words.
		await enqueueIntent({
			type: 'setting',
			key: 'swipe.left',
			value: '"read"',
			mtime: 1765100000500
		});
		await enqueueIntent({ type: 'setting', key: 'mute.words', value: '["old"]', mtime: 1 });
		const copy = await syncSharedSettings(clientReplying(recorded('debian-items')), account);
		expect(copy?.on).toBe(true);
		expect(copy?.items['swipe.left']).toEqual({
			value: '"read"',
			mtime: 1765100000500,
			replaced: { value: '"star"', mtime: 1765100000000 }
		});
		expect(copy?.items['mute.words']?.value).toBe('["crypto"]');
		expect(await sharedCopy(account)).toEqual(copy);
	});

	it.each(['debian-no-plugin', 'current-no-plugin'])(
		'a server without the plugin (%s): device only',
		async (name) => {
			await ownCacheForTests();
			const account = TEST_ACCOUNT;
			const copy = await syncSharedSettings(clientReplying(recorded(name)), account, {}, 5);
			expect(copy).toEqual({ on: false, items: {}, absentAt: 5 });
		}
	);

	it('the plugin not ticked for this account: device only', async () => {
		await ownCacheForTests();
		const account = TEST_ACCOUNT;
		const copy = await syncSharedSettings(
			clientReplying((r) => fail(r, 'PLUGIN_DISABLED')),
			account
		);
		expect(copy?.on).toBe(false);
	});

	it('the plugin absent: asked again only once ABSENT_RECHECK_MS has passed', async () => {
		await ownCacheForTests();
		const account = TEST_ACCOUNT;
		const fake = fakeFetch((r) => fail(r, 'PLUGIN_DISABLED'));
		const client = new TtrssClient({ apiUrl: API, fetch: fake.fetch, sessionId: 's' });
		await syncSharedSettings(client, account, {}, 1_000);
		const asked = fake.requests.length;
		expect(asked).toBeGreaterThan(0);
		expect((await syncSharedSettings(client, account, {}, 2_000))?.on).toBe(false);
		expect(fake.requests.length).toBe(asked);
		await syncSharedSettings(client, account, {}, 1_000 + ABSENT_RECHECK_MS);
		expect(fake.requests.length).toBeGreaterThan(asked);
	});

	it.each([
		['offline', () => Promise.reject(new TypeError('fetch failed'))],
		['HTTP 502', () => new Response('', { status: 502 })],
		['an HTML page', () => new Response('<html><body>proxy</body></html>')],
		['garbage', () => new Response('nope')]
	] as const)('%s: the copy stays as it was', async (_name, reply) => {
		await ownCacheForTests();
		const account = TEST_ACCOUNT;
		await syncSharedSettings(clientReplying(recorded('debian-items')), account);
		const before = await sharedCopy(account);
		const fake = fakeFetch(reply);
		const client = new TtrssClient({ apiUrl: API, fetch: fake.fetch, sessionId: 's' });
		expect(await syncSharedSettings(client, account)).toBeUndefined();
		expect(await sharedCopy(account)).toEqual(before);
		expect(before.on).toBe(true);
	});
});
