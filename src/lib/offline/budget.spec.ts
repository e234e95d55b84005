import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openReaderDb, type ReaderDatabase } from '$lib/db/open';
import type { StoredArticle } from '$lib/db/schema';
import { headline } from '$support/factories';
import { clearStored, enforceBudget, planEviction } from './budget';
import { articleBytes, defaultBudgetMB, measureStorage, type KeptImage } from './storage-measure';
import {
	batchSize,
	decideImages,
	imagesAllowed,
	parsePolicy,
	readStoragePolicy,
	writeStoragePolicy,
	type ConnectionHints
} from './policy';
import { evictCache, isEvictedFirst } from '$lib/db/quota';
import { IMAGE_CACHE, MEDIA_CACHE } from './storage';
import { unindexArticles } from '$lib/db/index-queue';

vi.mock('$lib/db/index-queue', () => ({ unindexArticles: vi.fn(), indexArticles: vi.fn() }));

/** Cache Storage as far as eviction uses it: one map of URL → Response per cache name. */
class FakeCache {
	readonly entries = new Map<string, Response>();
	keys(): Promise<Request[]> {
		return Promise.resolve([...this.entries.keys()].map((url) => new Request(url)));
	}
	match(request: Request | string): Promise<Response | undefined> {
		const url = typeof request === 'string' ? request : request.url;
		return Promise.resolve(this.entries.get(url)?.clone());
	}
	put(url: string, response: Response): Promise<void> {
		this.entries.set(url, response);
		return Promise.resolve();
	}
	delete(request: Request | string): Promise<boolean> {
		const url = typeof request === 'string' ? request : request.url;
		return Promise.resolve(this.entries.delete(url));
	}
}

const cacheStore = new Map<string, FakeCache>();
const fakeCaches = {
	has: (name: string): Promise<boolean> => Promise.resolve(cacheStore.has(name)),
	open: (name: string): Promise<FakeCache> => {
		let cache = cacheStore.get(name);
		if (!cache) cacheStore.set(name, (cache = new FakeCache()));
		return Promise.resolve(cache);
	}
};

beforeEach(() => {
	cacheStore.clear();
	(globalThis as { caches?: unknown }).caches = fakeCaches;
});

afterEach(() => {
	delete (globalThis as { caches?: unknown }).caches;
});

function stored(id: number, patch: Partial<StoredArticle> = {}): StoredArticle {
	return {
		...headline(id),
		comments: '',
		hasContent: true,
		storedAt: id,
		offline: true,
		...patch
	};
}

async function putAll(db: ReaderDatabase, articles: StoredArticle[]): Promise<void> {
	const tx = db.transaction('articles', 'readwrite');
	for (const article of articles) await tx.store.put(article);
	await tx.done;
}

async function queueFlag(db: ReaderDatabase, articleId: number): Promise<void> {
	await db.add('outbox', {
		key: `flag:unread:${articleId}`,
		articleId,
		intent: { type: 'flag', field: 'unread', articleIds: [articleId], value: false },
		createdAt: 1,
		attempts: 0
	});
}

describe('images policy', () => {
	const cases: [string, ConnectionHints, boolean][] = [
		['no hints (Firefox, WebKit, desktop Chromium)', {}, true],
		['Wi-Fi', { type: 'wifi' }, true],
		['ethernet', { type: 'ethernet' }, true],
		['cellular', { type: 'cellular' }, false],
		['bluetooth tethering', { type: 'bluetooth' }, false],
		['Data Saver, on Wi-Fi', { type: 'wifi', saveData: true }, false],
		['Data Saver, link unknown', { saveData: true }, false],
		['flagged metered', { metered: true }, false],
		['unknown link measured as 2G', { type: 'unknown', effectiveType: '2g' }, false],
		['unknown link measured as 4G', { type: 'unknown', effectiveType: '4g' }, true]
	];
	it.each(cases)('Wi-Fi only: %s', (_name, hints, allowed) => {
		expect(decideImages('wifi', hints).allowed).toBe(allowed);
	});

	it('"never" and "always" ignore every hint', () => {
		for (const [, hints] of cases) {
			expect(decideImages('never', hints).allowed).toBe(false);
			expect(decideImages('always', hints).allowed).toBe(true);
		}
	});

	it('imagesAllowed reads the stored setting (the worker has no localStorage)', async () => {
		expect(await imagesAllowed()).toBe(true);
		await writeStoragePolicy({ images: 'never' });
		expect(await imagesAllowed()).toBe(false);
	});

	it('batches shrink under Data Saver and on slow links', () => {
		expect(batchSize(200, {})).toBe(200);
		expect(batchSize(200, { effectiveType: '4g' })).toBe(200);
		expect(batchSize(200, { effectiveType: '3g' })).toBe(100);
		expect(batchSize(200, { effectiveType: '2g' })).toBe(50);
		expect(batchSize(200, { saveData: true })).toBe(50);
		expect(batchSize(1, { saveData: true })).toBe(1);
		expect(batchSize(0, {})).toBe(1);
	});
});

describe('the stored policy', () => {
	it('keeps only values of the right type and range', () => {
		expect(parsePolicy(undefined)).toEqual({ images: 'wifi', budgetMB: undefined });
		expect(parsePolicy({ images: 'sometimes', budgetMB: 'lots' })).toEqual({
			images: 'wifi',
			budgetMB: undefined
		});
		expect(parsePolicy({ images: 'never', budgetMB: 5 }).budgetMB).toBeUndefined();
		expect(parsePolicy({ images: 'always', budgetMB: 300.4 })).toEqual({
			images: 'always',
			budgetMB: 300
		});
	});

	it('round-trips through the settings store', async () => {
		await writeStoragePolicy({ budgetMB: 120 });
		await writeStoragePolicy({ images: 'always' });
		expect(await readStoragePolicy()).toEqual({ images: 'always', budgetMB: 120 });
		await writeStoragePolicy({ budgetMB: undefined });
		expect((await readStoragePolicy()).budgetMB).toBeUndefined();
	});

	it('derives the default budget from the quota', () => {
		expect(defaultBudgetMB({ quota: undefined })).toBe(250);
		expect(defaultBudgetMB({ quota: 100 * 1024 ** 2 })).toBe(50);
		expect(defaultBudgetMB({ quota: 3 * 1024 ** 3 })).toBe(310);
		expect(defaultBudgetMB({ quota: 500 * 1024 ** 3 })).toBe(1024);
	});
});

const articleArb = fc.record({
	unread: fc.boolean(),
	marked: fc.boolean(),
	published: fc.boolean(),
	inPack: fc.boolean(),
	storedAt: fc.integer({ min: 0, max: 50 }),
	size: fc.integer({ min: 0, max: 4000 }),
	image: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
	enclosure: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
	named: fc.boolean()
});

const enclosureUrl = (n: number): string => `http://feeds.test/e${n}.mp3`;
const withEnclosure = (url: string): Pick<StoredArticle, 'attachments'> => ({
	attachments: [
		{
			id: 1,
			contentUrl: url,
			contentType: 'audio/mpeg',
			title: '',
			duration: undefined,
			width: undefined,
			height: undefined,
			postId: undefined
		}
	]
});

describe('eviction order (property)', () => {
	it('never drops what the outbox names nor unread/starred/pack before a read one, and meets the budget when it can', () => {
		fc.assert(
			fc.property(
				fc.array(articleArb, { maxLength: 30 }),
				fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 8 }),
				fc.integer({ min: -1000, max: 200_000 }),
				fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 5 }),
				(specs, imageIds, bytesToFree, mediaIds) => {
					const articles = specs.map((s, i) =>
						stored(i + 1, {
							unread: s.unread,
							marked: s.marked,
							published: s.published,
							storedAt: s.storedAt,
							content:
								'x'.repeat(s.size) +
								(s.image === undefined ? '' : `<img src="http://feeds.test/i${s.image}.png">`),
							...(s.inPack ? { packs: ['p'] } : {}),
							...(s.enclosure === undefined ? {} : withEnclosure(enclosureUrl(s.enclosure)))
						})
					);
					const media: KeptImage[] = [...new Set(mediaIds)].map((n) => ({
						url: enclosureUrl(n),
						bytes: 5000 * (n + 1),
						estimated: false
					}));
					const outboxIds = new Set(specs.flatMap((s, i) => (s.named ? [i + 1] : [])));
					const images: KeptImage[] = [...new Set(imageIds)].map((n) => ({
						url: `http://feeds.test/i${n}.png`,
						bytes: 1000 * (n + 1),
						estimated: false
					}));
					const plan = planEviction(articles, images, outboxIds, bytesToFree, media);
					const dropped = new Set(plan.articles);
					// An enclosure goes only with the last article that has it (or when none has it).
					for (const url of plan.media) {
						const users = specs.flatMap((s, i) =>
							s.enclosure !== undefined && enclosureUrl(s.enclosure) === url ? [i + 1] : []
						);
						for (const id of users) expect(dropped.has(id)).toBe(true);
					}
					const byId = new Map(articles.map((a) => [a.id, a]));

					for (const id of dropped) expect(outboxIds.has(id)).toBe(false);
					const remainingReadFirst = articles.filter(
						(a) => !dropped.has(a.id) && !outboxIds.has(a.id) && isEvictedFirst(a)
					);
					const droppedOthers = plan.articles.filter((id) => !isEvictedFirst(byId.get(id)!));
					if (droppedOthers.length > 0) expect(remainingReadFirst).toEqual([]);
					// Oldest first within each kind.
					for (const kind of [true, false]) {
						const ages = plan.articles
							.map((id) => byId.get(id)!)
							.filter((a) => isEvictedFirst(a) === kind)
							.map((a) => a.storedAt);
						expect(ages).toEqual([...ages].sort((x, y) => x - y));
					}
					const droppable =
						articles
							.filter((a) => !outboxIds.has(a.id))
							.reduce((sum, a) => sum + articleBytes(a), 0) +
						images.reduce((sum, image) => sum + image.bytes, 0) +
						// An enclosure of an article the outbox keeps stays with it.
						media
							.filter(
								(file) =>
									!specs.some(
										(s, i) =>
											s.enclosure !== undefined &&
											enclosureUrl(s.enclosure) === file.url &&
											outboxIds.has(i + 1)
									)
							)
							.reduce((sum, file) => sum + file.bytes, 0);
					if (bytesToFree <= droppable) expect(plan.freed).toBeGreaterThanOrEqual(bytesToFree);
					else expect(plan.freed).toBe(droppable);
					expect(new Set(plan.images).size).toBe(plan.images.length);
				}
			)
		);
	});
});

describe('enforceBudget', () => {
	it('drops read articles first, keeps the lists consistent and never touches the outbox', async () => {
		const db = await openReaderDb();
		const big = 'x'.repeat(20_000);
		await putAll(db, [
			stored(1, { unread: false, content: big }),
			stored(2, { unread: false, content: big }),
			stored(3, { unread: true, content: big }),
			stored(4, { unread: false, marked: true, content: big }),
			stored(5, { unread: false, content: big, packs: ['commute'] }),
			stored(6, { unread: false, content: big })
		]);
		await queueFlag(db, 1);
		await db.put('lists', { key: 'all', ids: [6, 5, 4, 3, 2, 1], complete: true, fetchedAt: 1 });
		const one = articleBytes(stored(1, { unread: false, content: big }));

		const report = await enforceBudget(db, 4 * one);
		expect(report.articles).toEqual([2, 6]);
		expect(report.met).toBe(true);
		expect(await db.getAllKeys('articles')).toEqual([1, 3, 4, 5]);
		expect(await db.get('lists', 'all')).toMatchObject({ ids: [5, 4, 3, 1], complete: false });
		expect(await db.count('outbox')).toBe(1);
		expect(vi.mocked(unindexArticles)).toHaveBeenLastCalledWith([2, 6]);

		// Tighter than the protected ones allow: unread/starred/pack go, oldest first; 1 stays.
		const tight = await enforceBudget(db, one / 2);
		expect(tight.articles).toEqual([3, 4, 5]);
		expect(tight.met).toBe(false);
		expect(await db.getAllKeys('articles')).toEqual([1]);
	});

	it('drops the images of dropped articles with them, before any unread article', async () => {
		const db = await openReaderDb();
		await putAll(db, [
			stored(1, { unread: false, content: '<img src="http://feeds.test/a.png">' }),
			stored(2, { unread: true, content: '<img src="http://feeds.test/b.png">' })
		]);
		const cache = await fakeCaches.open(IMAGE_CACHE);
		await cache.put('http://feeds.test/a.png', new Response(new Uint8Array(30_000)));
		await cache.put(
			'http://feeds.test/b.png',
			new Response('', { headers: { 'content-length': '30000' } })
		);
		const report = await measureStorage(db);
		expect(report.images).toEqual({ count: 2, bytes: 60_000, estimated: false });
		expect(report.articles).toMatchObject({ total: 2, unread: 1, read: 1 });

		const result = await enforceBudget(db, report.bytes - 1);
		expect(result.articles).toEqual([1]);
		expect([...cache.entries.keys()]).toEqual(['http://feeds.test/b.png']);
		// Then the unread article's image goes before the article itself.
		const next = await enforceBudget(db, articleBytes((await db.get('articles', 2))!));
		expect(next.articles).toEqual([]);
		expect(cache.entries.size).toBe(0);
	});
});

describe('enclosures of offline packs', () => {
	const episode = 'http://feeds.test/media/episode.mp3';

	it('are measured, and dropped with their article, never before it', async () => {
		const db = await openReaderDb();
		await putAll(db, [
			stored(1, { unread: false }),
			stored(2, { unread: false, packs: ['feed:4'], ...withEnclosure(episode) })
		]);
		const media = await fakeCaches.open(MEDIA_CACHE);
		await media.put(episode, new Response('', { headers: { 'content-length': '900000' } }));
		await media.put('http://feeds.test/media/orphan.mp3', new Response(new Uint8Array(1000)));
		const report = await measureStorage(db);
		expect(report.media).toEqual({ count: 2, bytes: 901_000, estimated: false });
		expect(report.bytes).toBe(report.articles.bytes + 901_000);

		// Over by a little: the read article, then the file no article has; the episode stays.
		const first = await enforceBudget(db, report.bytes - 1200);
		expect(first.articles).toEqual([1]);
		expect(first.media).toBe(1);
		expect([...media.entries.keys()]).toEqual([episode]);
		// Over by more than the episode: it goes only together with its pack article.
		const second = await enforceBudget(db, 1000);
		expect(second.articles).toEqual([2]);
		expect(media.entries.size).toBe(0);
	});

	it('"media" clears the files and keeps every article; clearing articles takes their files', async () => {
		const db = await openReaderDb();
		await putAll(db, [
			stored(1, { unread: false, ...withEnclosure(episode) }),
			stored(2, { unread: true, packs: ['feed:4'], ...withEnclosure(`${episode}?2`) })
		]);
		const media = await fakeCaches.open(MEDIA_CACHE);
		await media.put(episode, new Response('a'));
		await media.put(`${episode}?2`, new Response('b'));
		expect(await clearStored('read', db)).toEqual({ articles: 1, images: 0, media: 1 });
		expect([...media.entries.keys()]).toEqual([`${episode}?2`]);
		expect(await clearStored('media', db)).toEqual({ articles: 0, images: 0, media: 1 });
		expect(await db.count('articles')).toBe(1);
	});
});

describe('a full quota (evictCache)', () => {
	it('uses the same order: read ones first, never what the outbox names', async () => {
		const db = await openReaderDb();
		await putAll(db, [
			stored(1, { unread: false }),
			stored(2, { unread: true }),
			stored(3, { unread: false }),
			stored(4, { unread: false }),
			stored(5, { unread: true })
		]);
		await queueFlag(db, 3);
		await db.put('lists', { key: 'l', ids: [1, 2, 3, 4, 5], complete: true, fetchedAt: 1 });
		expect(await evictCache(db, 0.4)).toBe(2);
		expect(await db.getAllKeys('articles')).toEqual([2, 3, 5]);
		expect((await db.get('lists', 'l'))?.ids).toEqual([2, 3, 5]);
		expect(vi.mocked(unindexArticles)).toHaveBeenLastCalledWith([1, 4]);
	});
});

describe("enforceBudget with the browser's figure", () => {
	afterEach(() => {
		vi.unstubAllGlobals();
	});

	it('measures nothing when the browser says the app uses less than the budget', async () => {
		const db = await openReaderDb();
		await putAll(db, [stored(1, { unread: false, content: 'x'.repeat(50_000) })]);
		const usage = (used: number) => ({
			storage: { estimate: () => Promise.resolve({ usage: used, quota: 10 ** 9 }) }
		});
		vi.stubGlobal('navigator', usage(1000));
		expect(await enforceBudget(db, 2000)).toMatchObject({ articles: [], before: 1000, met: true });
		expect(await db.count('articles')).toBe(1);
		// Over it by the browser's figure: measured, and the read article goes.
		vi.stubGlobal('navigator', usage(5000));
		expect((await enforceBudget(db, 2000)).articles).toEqual([1]);
	});
});

describe('clearing by hand', () => {
	async function seed(db: ReaderDatabase): Promise<FakeCache> {
		await putAll(db, [
			stored(1, { unread: false, content: '<img src="http://feeds.test/a.png">' }),
			stored(2, { unread: true, content: '<img src="http://feeds.test/b.png">' }),
			stored(3, { unread: false }),
			stored(4, { unread: false, marked: true })
		]);
		await queueFlag(db, 3);
		const cache = await fakeCaches.open(IMAGE_CACHE);
		await cache.put('http://feeds.test/a.png', new Response('a'));
		await cache.put('http://feeds.test/b.png', new Response('b'));
		return cache;
	}

	it('"read" drops read unprotected articles and the images only they showed', async () => {
		const db = await openReaderDb();
		const cache = await seed(db);
		expect(await clearStored('read', db)).toEqual({ articles: 1, images: 1, media: 0 });
		expect(await db.getAllKeys('articles')).toEqual([2, 3, 4]);
		expect([...cache.entries.keys()]).toEqual(['http://feeds.test/b.png']);
	});

	it('"articles" keeps only what the outbox names; "images" keeps every article', async () => {
		const db = await openReaderDb();
		const cache = await seed(db);
		expect(await clearStored('images', db)).toEqual({ articles: 0, images: 2, media: 0 });
		expect(await db.count('articles')).toBe(4);
		expect(cache.entries.size).toBe(0);
		expect(await clearStored('articles', db)).toEqual({ articles: 3, images: 0, media: 0 });
		expect(await db.getAllKeys('articles')).toEqual([3]);
		expect(await db.count('outbox')).toBe(1);
	});
});
