import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { wipeAccount } from '$lib/db/device';
import { openReaderDb } from '$lib/db/open';
import { CACHE_OWNER } from '$lib/db/keys';
import { deleteStored, getStored, putStored } from '$lib/db/kv';
import { syncNow } from '$lib/sync/engine';
import { runSync } from '$lib/sync/run-sync';
import { alertNewArticles } from './notify';
import { syncServer } from '$support/sync-server';
import { recordedLevels } from '$support/fake-fetch';
import {
	addAlertRule,
	ALERT_CONSIDERED,
	ALERT_MEMORY,
	loadAlertMemory,
	saveAlertSettings
} from './rules';
import { ownCacheForTests } from '$support/own-cache';

const ACCOUNT = 'reader@http://tt.example/api/';

interface Shown {
	title: string;
	options: NotificationOptions;
}

let shown: Shown[];

beforeEach(async () => {
	// Written as the signed-in account's, as in the app.
	await ownCacheForTests();
	shown = [];
	// The worker's globals: its registration and a granted permission.
	vi.stubGlobal('Notification', { permission: 'granted' });
	vi.stubGlobal('registration', {
		scope: 'http://app.example/',
		showNotification: (title: string, options: NotificationOptions) => {
			shown.push({ title, options });
			return Promise.resolve();
		}
	});
});

afterEach(() => {
	vi.unstubAllGlobals();
});

const sync = (server: ReturnType<typeof syncServer>) =>
	runSync({ client: server.client, account: ACCOUNT, articleCount: 500 });

describe.each(recordedLevels)('alerts after a sync (%s server shapes)', (level) => {
	it('new articles of a watched feed give one grouped notice, once; what was there before never', async () => {
		const server = syncServer(level);
		server.arrive(5, 4);
		await sync(server);
		await addAlertRule(ACCOUNT, { id: 'feed:4', kind: 'feed', feedId: 4, title: 'Podcasts' });
		const ids = server.arrive(3, 4);
		server.arrive(2, 1);
		await sync(server);
		expect(shown).toHaveLength(1);
		expect(shown[0]?.title).toBe('3 new in Podcasts');
		expect(shown[0]?.options.tag).toBe('alert:feed:4');
		expect(shown[0]?.options.data).toEqual({
			path: 'feed/4',
			account: ACCOUNT,
			articleIds: [...ids].reverse()
		});
		// The next syncs (nothing new; then a full comparison) say nothing more.
		await sync(server);
		await runSync({ client: server.client, account: ACCOUNT, articleCount: 500, full: true });
		expect(shown).toHaveLength(1);
	});

	it('a sync that outlives the sign-out shows nothing', async () => {
		const server = syncServer(level);
		server.arrive(5, 4);
		await sync(server);
		await addAlertRule(ACCOUNT, { id: 'feed:4', kind: 'feed', feedId: 4, title: 'Podcasts' });
		server.arrive(3, 4);
		await syncNow({ client: server.client, account: ACCOUNT, articleCount: 500 });
		// The sign-out ends the sign-in (the cache's owner goes first) before the sync's alerts.
		await deleteStored(CACHE_OWNER);
		expect(await alertNewArticles(ACCOUNT)).toEqual([]);
		expect(shown).toEqual([]);
	});

	it('a rule made before the first sync starts with what that sync stores', async () => {
		const server = syncServer(level);
		server.arrive(5, 4);
		await addAlertRule(ACCOUNT, { id: 'feed:4', kind: 'feed', feedId: 4, title: 'Podcasts' });
		await sync(server);
		expect(shown).toEqual([]);
		server.arrive(1, 4);
		await sync(server);
		expect(shown.map((s) => s.title)).toEqual(['New in Podcasts']);
	});

	it('an article in a list the reader had open was seen: no alert for it', async () => {
		const server = syncServer(level);
		server.arrive(2, 4);
		await sync(server);
		await addAlertRule(ACCOUNT, { id: 'feed:4', kind: 'feed', feedId: 4, title: 'Podcasts' });
		const [seen, unseen] = server.arrive(2, 4);
		const db = await openReaderDb();
		await db.put('lists', { key: 'open', ids: [seen ?? 0], complete: true, fetchedAt: 1 });
		await sync(server);
		expect(shown[0]?.options.data).toMatchObject({ path: `feed/4/${unseen}` });
	});

	it('quiet hours: nothing shown, then summed up by the first sync after them', async () => {
		// Only Date is faked: IndexedDB and the engine keep their real timers.
		vi.useFakeTimers({ toFake: ['Date'] });
		vi.setSystemTime(new Date(2026, 10, 23, 23, 30));
		const server = syncServer(level);
		server.arrive(1, 4);
		await sync(server);
		const rule = { id: 'feed:4', kind: 'feed', feedId: 4, title: 'Podcasts' } as const;
		await addAlertRule(ACCOUNT, rule);
		await saveAlertSettings(ACCOUNT, {
			rules: [rule],
			quiet: { enabled: true, start: '22:00', end: '07:00' }
		});
		const ids = server.arrive(2, 4);
		await sync(server);
		expect(shown).toEqual([]);
		expect((await loadAlertMemory(ACCOUNT)).pending['feed:4']).toEqual(ids);
		// Morning: no new article on the server; the next sync sums up the night's.
		vi.setSystemTime(new Date(2026, 10, 24, 7, 5));
		await sync(server);
		expect(shown.map((s) => [s.title, s.options.body])).toEqual([
			['2 new in Podcasts', `Arrived during quiet hours:\nArticle ${ids[1]}\nArticle ${ids[0]}`]
		]);
		vi.useRealTimers();
	});

	it('remembers per account, and sign-out forgets it', async () => {
		const server = syncServer(level);
		server.arrive(1, 4);
		await sync(server);
		await addAlertRule(ACCOUNT, { id: 'feed:4', kind: 'feed', feedId: 4, title: 'Podcasts' });
		expect(await getStored(ALERT_CONSIDERED(ACCOUNT))).toEqual({ floor: 1, ids: [] });
		expect(await getStored(ALERT_CONSIDERED('other@http://tt.example/api/'))).toBeUndefined();
		await wipeAccount(ACCOUNT);
		expect(await getStored(ALERT_CONSIDERED(ACCOUNT))).toBeUndefined();
	});

	it('a memory kept before (the newest id per rule) carries on from its lowest', async () => {
		const server = syncServer(level);
		server.arrive(3, 4);
		await sync(server);
		await saveAlertSettings(ACCOUNT, {
			rules: [{ id: 'feed:4', kind: 'feed', feedId: 4, title: 'Podcasts' }],
			quiet: { enabled: false, start: '22:00', end: '07:00' }
		});
		await putStored(ALERT_MEMORY(ACCOUNT), { last: { 'feed:4': 2 }, pending: {} });
		server.arrive(1, 4);
		await sync(server);
		expect(shown[0]?.options.data).toMatchObject({ articleIds: [4, 3] });
		expect(shown).toHaveLength(1);
		expect((await loadAlertMemory(ACCOUNT)).last).toBeUndefined();
	});

	it('without the permission nothing is shown, and the articles are not announced later', async () => {
		vi.stubGlobal('Notification', { permission: 'default' });
		const server = syncServer(level);
		server.arrive(1, 4);
		await sync(server);
		await addAlertRule(ACCOUNT, { id: 'feed:4', kind: 'feed', feedId: 4, title: 'Podcasts' });
		server.arrive(1, 4);
		await sync(server);
		expect(shown).toEqual([]);
		vi.stubGlobal('Notification', { permission: 'granted' });
		await sync(server);
		expect(shown).toEqual([]);
	});

	it('tells of the older new articles that arrive after newer ones (issue 55)', async () => {
		const server = syncServer(level);
		const small = () => runSync({ client: server.client, account: ACCOUNT, articleCount: 200 });
		server.arrive(1, 4);
		await small();
		await addAlertRule(ACCOUNT, { id: 'feed:4', kind: 'feed', feedId: 4, title: 'Podcasts' });
		// A weekend away: 300 new; the sync keeps the newest 200.
		const fresh = server.arrive(300, 4);
		await small();
		expect(shown.map((s) => s.title)).toEqual(['200 new in Podcasts']);
		// The reader reads those elsewhere; the next sync brings the other 100.
		for (const id of fresh.slice(100)) server.article(id).unread = false;
		await small();
		expect(shown.map((s) => s.title)).toEqual(['200 new in Podcasts', '100 new in Podcasts']);
	});

	it('without Web Locks, the page and the worker at once tell of an article once', async () => {
		vi.stubGlobal('navigator', {});
		const server = syncServer(level);
		const options = { client: server.client, account: ACCOUNT, articleCount: 500 };
		server.arrive(1, 4);
		await syncNow(options);
		await addAlertRule(ACCOUNT, { id: 'feed:4', kind: 'feed', feedId: 4, title: 'Podcasts' });
		server.arrive(2, 4);
		await syncNow(options);
		// Two syncs ended together (the page's and the worker's): each runs the alerts.
		await Promise.all([alertNewArticles(ACCOUNT), alertNewArticles(ACCOUNT)]);
		expect(shown.map((s) => s.title)).toEqual(['2 new in Podcasts']);
	});
});
