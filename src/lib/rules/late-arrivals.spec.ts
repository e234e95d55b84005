// Issue 55, item 3 (review repro rules-watermark.spec.ts): the rules remembered only "the newest id
// considered" and took every stored article at or below it as considered. But the device does not
// receive articles in id order: after a burst bigger than the reader's article count, the sync's
// first step keeps the newest N; the older new ones reach the device in later syncs (the unread
// set read again), with ids below the mark. Now they keep which articles they considered
// (db/considered.ts).
import { beforeEach, describe, expect, it } from 'vitest';
import { openReaderDb } from '$lib/db/open';
import { ownCacheForTests } from '$support/own-cache';
import { pendingItems } from '$lib/outbox/outbox';
import { runSync } from '$lib/sync/run-sync';
import { syncServer } from '$support/sync-server';
import { recordedLevels } from '$support/fake-fetch';
import { putStored } from '$lib/db/kv';
import { RULE_MEMORY } from '$lib/rules/memory';
import { saveRules } from '$lib/rules/store';
import type { MatchRule } from './model';

const ACCOUNT = 'reader@http://tt.example/api/';

beforeEach(async () => {
	await ownCacheForTests();
});

describe.each(recordedLevels)('rules over a burst bigger than the article count (%s)', (level) => {
	it('act on every matching article that arrives, not only the newest N', async () => {
		const server = syncServer(level);
		const sync = () => runSync({ client: server.client, account: ACCOUNT, articleCount: 200 });
		server.arrive(3);
		await sync();
		await saveRules(ACCOUNT, {
			rules: [
				{
					kind: 'match',
					id: 'r1',
					query: 'title:sponsored',
					scope: { kind: 'all' },
					actions: [{ kind: 'star' }]
				}
			]
		});
		// A weekend away: 300 new articles, every one a sponsored post.
		const fresh = server.arrive(300);
		for (const id of fresh) server.article(id).title = `Sponsored post ${id}`;
		await sync();
		// The reader reads the newest 200 (elsewhere); the next sync brings the other 100.
		for (const id of fresh.slice(100)) server.article(id).unread = false;
		await sync();
		const db = await openReaderDb();
		const older = fresh[50]!;
		expect((await db.get('articles', older))?.title).toBe(`Sponsored post ${older}`);
		const starred = new Set(
			(await pendingItems())
				.filter((i) => i.intent.type === 'flag' && i.intent.field === 'starred')
				.map((i) => i.articleId)
		);
		expect(starred.has(fresh.at(-1))).toBe(true);
		// Arrived by sync, matches the rule, never acted on:
		expect(starred.has(older)).toBe(true);
	});

	it('a memory kept before (the newest id considered) carries on from there', async () => {
		const server = syncServer(level);
		const sync = () => runSync({ client: server.client, account: ACCOUNT, articleCount: 200 });
		for (const id of server.arrive(3)) server.article(id).title = `Sponsored old ${id}`;
		await sync();
		await saveRules(ACCOUNT, { rules: [sponsored] });
		// What the rules kept until now: the newest id they had considered.
		await putStored(RULE_MEMORY(ACCOUNT), { last: 3 } as never);
		const fresh = server.arrive(2);
		for (const id of fresh) server.article(id).title = `Sponsored post ${id}`;
		await sync();
		expect(await starredIds()).toEqual(fresh);
	});

	it('made before anything was stored, they start after what the first sync brings', async () => {
		const server = syncServer(level);
		const sync = () => runSync({ client: server.client, account: ACCOUNT, articleCount: 200 });
		await saveRules(ACCOUNT, { rules: [sponsored] });
		for (const id of server.arrive(3)) server.article(id).title = `Sponsored old ${id}`;
		await sync();
		expect(await starredIds()).toEqual([]);
		const fresh = server.arrive(1);
		server.article(fresh[0]!).title = 'Sponsored post';
		await sync();
		expect(await starredIds()).toEqual(fresh);
	});
});

const sponsored = {
	kind: 'match',
	id: 'r1',
	query: 'title:sponsored',
	scope: { kind: 'all' },
	actions: [{ kind: 'star' }]
} as const satisfies MatchRule;

async function starredIds(): Promise<number[]> {
	return (await pendingItems())
		.filter((i) => i.intent.type === 'flag' && i.intent.field === 'starred')
		.map((i) => i.articleId!)
		.sort((a, b) => a - b);
}
