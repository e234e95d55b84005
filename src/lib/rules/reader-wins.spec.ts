// Issue 55, item 4 (review repro rules-after-reader.spec.ts): the rules acted on every stored
// article they had not considered, however it got there. An article the reader's open list brought
// in (headlines.svelte.ts → cache storeList) before the next sync, and that the reader already
// dealt with (opened, then kept unread on purpose), was then marked read by a "mark read" rule
// when the sync ended. Now the reader's change marks the cached article (outbox/intent-effect.ts) and no
// rule acts on an article so marked.
import { beforeEach, describe, expect, it } from 'vitest';
import { ownCacheForTests } from '$support/own-cache';
import { pendingItems } from '$lib/outbox/outbox';
import { enqueueIntent } from '$lib/outbox/enqueue';
import { storeList } from '$lib/cache/write';
import { runSync } from '$lib/sync/run-sync';
import { syncServer } from '$support/sync-server';
import { recordedLevels } from '$support/fake-fetch';
import { saveRules } from '$lib/rules/store';
import { SPECIAL_FEED } from '$lib/api';

const ACCOUNT = 'reader@http://tt.example/api/';

beforeEach(async () => {
	await ownCacheForTests();
});

describe.each(recordedLevels)('a rule and the reader’s own change (%s)', (level) => {
	it('a mark-read rule does not override the reader keeping an article unread', async () => {
		const server = syncServer(level);
		const sync = () => runSync({ client: server.client, account: ACCOUNT, articleCount: 200 });
		server.arrive(3);
		await sync();
		await saveRules(ACCOUNT, {
			rules: [
				{
					kind: 'match',
					id: 'r1',
					query: 'title:weekly',
					scope: { kind: 'all' },
					actions: [{ kind: 'read' }]
				}
			]
		});
		const [id] = server.arrive(1);
		server.article(id!).title = 'Weekly notes';
		// The reader's open list (All articles) brings it in before the next sync …
		const { headlines } = await server.client.getHeadlines({ feedId: SPECIAL_FEED.all, limit: 20 });
		const row = headlines.find((h) => h.id === id)!;
		expect(row.title).toBe('Weekly notes');
		await storeList(
			{ feedId: SPECIAL_FEED.all, isCat: false, viewMode: 'adaptive', orderBy: '', search: '' },
			0,
			headlines,
			true,
			Date.now()
		);
		// … the reader opens it (read), then keeps it unread for later.
		await enqueueIntent({ type: 'flag', field: 'unread', articleIds: [id!], value: false });
		await enqueueIntent({ type: 'flag', field: 'unread', articleIds: [id!], value: true });
		await sync();
		const unread = (await pendingItems()).filter(
			(i) => i.intent.type === 'flag' && i.intent.field === 'unread' && i.articleId === id
		);
		expect(unread.map((i) => i.intent.type === 'flag' && i.intent.value)).toEqual([true]);
	});
});
