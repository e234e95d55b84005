// When and how often the rules run: under the sync's lock whatever the sync found (a sign-out waits
// for the sync's lock, db/device.ts withReplayAndSyncStopped), and once per article across the page
// and the worker even where Web Locks are missing (old WebKit): issue 55's two suspected items.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SPECIAL_FEED } from '$lib/api';
import { recordedLevels } from '$support/fake-fetch';
import { storeList } from '$lib/cache/write';
import { SYNC_LOCK } from '$lib/db/names';
import { ownCacheForTests } from '$support/own-cache';
import { installWebLocks } from '$support/fake-locks';
import { syncNow } from '$lib/sync/engine';
import { runSync } from '$lib/sync/run-sync';
import { syncServer } from '$support/sync-server';
import type { MatchRule } from './model';
import { runRules } from './after-sync';
import { saveRules } from './store';

const ACCOUNT = 'reader@http://tt.example/api/';

const comets: MatchRule = {
	kind: 'match',
	id: 'r1',
	query: 'title:comet',
	scope: { kind: 'all' },
	actions: [{ kind: 'alert' }, { kind: 'star' }]
};

/** Notifications allowed; `onShow` runs as each is shown. */
function notifications(onShow: (title: string) => Promise<void> | void = () => undefined) {
	const shown: string[] = [];
	vi.stubGlobal('Notification', { permission: 'granted' });
	vi.stubGlobal('registration', {
		scope: 'http://app.example/',
		showNotification: async (title: string) => {
			shown.push(title);
			await onShow(title);
		}
	});
	return shown;
}

beforeEach(async () => {
	await ownCacheForTests();
});

afterEach(() => {
	vi.unstubAllGlobals();
});

describe.each(recordedLevels)('the rules run (%s)', (level) => {
	it('after an unchanged sync, still under the sync’s lock: a sign-out waits for them', async () => {
		installWebLocks();
		let heldWhileAlerting: string[] = [];
		notifications(async () => {
			heldWhileAlerting =
				(await navigator.locks.query()).held?.map((lock) => lock.name ?? '') ?? [];
		});
		const server = syncServer(level);
		const sync = () => runSync({ client: server.client, account: ACCOUNT, articleCount: 200 });
		const [, read] = server.arrive(2);
		// Read elsewhere: the sync does not keep it, and the counters do not move again.
		server.article(read!).unread = false;
		server.article(read!).title = 'Comet over the bay';
		await sync();
		await saveRules(ACCOUNT, { rules: [comets] });
		// The reader's All articles list brings it in between two syncs.
		const { headlines } = await server.client.getHeadlines({ feedId: SPECIAL_FEED.all, limit: 20 });
		await storeList(
			{ feedId: SPECIAL_FEED.all, isCat: false, viewMode: 'adaptive', orderBy: '', search: '' },
			0,
			headlines,
			true,
			Date.now()
		);
		expect((await sync()).status).toBe('unchanged');
		expect(heldWhileAlerting).toContain(SYNC_LOCK);
	});

	it('once per article across the page and the worker, without Web Locks', async () => {
		vi.stubGlobal('navigator', {});
		const shown = notifications();
		const server = syncServer(level);
		const options = { client: server.client, account: ACCOUNT, articleCount: 200 };
		server.arrive(2);
		await syncNow(options);
		await saveRules(ACCOUNT, { rules: [comets] });
		for (const id of server.arrive(2)) server.article(id).title = `Comet ${id}`;
		await syncNow(options);
		// Two syncs ended together (the page's and the worker's): each runs the rules.
		const [page, worker] = await Promise.all([runRules(ACCOUNT), runRules(ACCOUNT)]);
		expect(shown).toHaveLength(1);
		expect(page.queued + worker.queued).toBe(1);
	});
});
