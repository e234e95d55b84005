/**
 * One replay of 1,000 queued intents against the real tt-rss test bed: how many HTTP requests
 * and how long. The outbox lives in fake-indexeddb (Node); the client is the app's TtrssClient
 * over Node's fetch, counted. The server's end state is checked against the intents.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { expect, it } from 'vitest';
import type { FetchLike } from '$lib/api';
import { TtrssClient } from '$lib/api/client';
import { resetReaderDbForTests } from '$lib/db/open';
import { enqueueIntent } from '$lib/outbox/enqueue';
import type { ArticleFlag } from '$lib/outbox/intent';
import { replayOutbox } from '$lib/outbox/replay';
import { resetTestbed, testbed } from '../tests/support/testbed';

function random(seed: number): () => number {
	let s = seed;
	return () => {
		s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
		return s / 2 ** 31;
	};
}

/** A fresh outbox, a signed-in client whose HTTP requests are counted, and 100 real articles. */
async function setUp(articleCount: number) {
	resetTestbed();
	globalThis.indexedDB = new IDBFactory();
	resetReaderDbForTests();
	const counter = { requests: 0 };
	const counted: FetchLike = (url, init) => {
		counter.requests++;
		return fetch(url, init);
	};
	const client = new TtrssClient({ apiUrl: testbed.apiUrl, fetch: counted });
	await client.login({ user: testbed.user, password: testbed.password });
	const ids = (
		await client.getHeadlines({ feedId: 6, limit: 200, viewMode: 'all_articles' })
	).headlines
		.slice(0, articleCount)
		.map((h) => h.id);
	return { client, ids, counter };
}

/** Replays the outbox once and prints the figures. */
async function measureReplay(
	client: TtrssClient,
	counter: { requests: number },
	label: string
): Promise<number> {
	counter.requests = 0;
	const start = performance.now();
	const result = await replayOutbox({ client });
	const replayMs = performance.now() - start;
	console.log(
		`[bench] ${label}: replay ${counter.requests} HTTP requests, ${replayMs.toFixed(0)} ms; result ${JSON.stringify(result)}`
	);
	expect(result).toMatchObject({ remaining: 0, failed: 0 });
	return counter.requests;
}

it('replays 1,000 read and star intents (what a reader does offline) in at most 4 requests', async () => {
	const { client, ids, counter } = await setUp(200);
	const next = random(11);
	const intended = new Map<string, boolean>();
	for (let i = 0; i < 1000; i++) {
		const id = ids[Math.floor(next() * ids.length)] as number;
		const field: ArticleFlag = next() < 0.6 ? 'unread' : 'starred';
		const value = next() < 0.5;
		intended.set(`${field}:${id}`, value);
		await enqueueIntent({ type: 'flag', field, articleIds: [id], value });
	}
	// One updateArticle per field and target value, ids joined: 2 fields x 2 values.
	expect(
		await measureReplay(client, counter, `1000 read/star intents, ${intended.size} items`)
	).toBeLessThanOrEqual(4);
	const articles = new Map(
		(await client.getArticle({ articleIds: ids })).map((a) => [a.id, a] as const)
	);
	for (const [key, value] of intended) {
		const [field, idText] = key.split(':');
		const a = articles.get(Number(idText));
		expect(field === 'unread' ? a?.unread : a?.marked, key).toBe(value);
	}
});

it('replays 1,000 mixed intents (flags, labels, distinct notes)', async () => {
	const { client, ids, counter } = await setUp(100);
	const next = random(7);
	const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
	const flags: ArticleFlag[] = ['unread', 'starred', 'published'];
	const intended = new Map<string, boolean | string>();
	const enqueueStart = performance.now();
	for (let i = 0; i < 1000; i++) {
		const id = pick(ids);
		const roll = next();
		if (roll < 0.8) {
			const field = pick(flags);
			const value = next() < 0.5;
			intended.set(`${field}:${id}`, value);
			await enqueueIntent({ type: 'flag', field, articleIds: [id], value });
		} else if (roll < 0.95) {
			const labelId = pick([-1026, -1027]);
			const assign = next() < 0.5;
			intended.set(`label${labelId}:${id}`, assign);
			await enqueueIntent({ type: 'label', articleIds: [id], labelId, assign });
		} else {
			const note = next() < 0.5 ? '' : `note ${i}`;
			intended.set(`note:${id}`, note);
			await enqueueIntent({ type: 'note', articleId: id, note });
		}
	}
	const enqueueMs = performance.now() - enqueueStart;

	const replayRequests = await measureReplay(
		client,
		counter,
		`1000 mixed intents over ${ids.length} articles, ${intended.size} items (enqueue ${enqueueMs.toFixed(0)} ms)`
	);
	// Flags: 3 fields x 2 values; labels: 2 x 2; each distinct note text needs its own call.
	expect(replayRequests).toBeLessThanOrEqual(3 * 2 + 2 * 2 + 60);

	// The server ends in exactly the intended state.
	const articles = new Map(
		(await client.getArticle({ articleIds: ids })).map((a) => [a.id, a] as const)
	);
	for (const [key, value] of intended) {
		const [what, idText] = key.split(':');
		const a = articles.get(Number(idText));
		expect(a, key).toBeDefined();
		if (!a) continue;
		if (what === 'unread') expect(a.unread, key).toBe(value);
		else if (what === 'starred') expect(a.marked, key).toBe(value);
		else if (what === 'published') expect(a.published, key).toBe(value);
		else if (what === 'note') expect(a.note ?? '', key).toBe(value);
		else {
			const labelId = Number(what?.replace('label', ''));
			expect(
				a.labels.some((l) => l.id === labelId),
				key
			).toBe(value);
		}
	}
});
