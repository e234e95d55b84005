import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordedLevels } from '$support/fake-fetch';
import { DEVICE_FEED } from '$lib/api';
import { signedInPage } from '$support/recorded-server';

/** The test bed's tree and counters (getFeedTree, from level 5). */
const TREE = { getFeedTree: 'getFeedTree', getCounters: 'getCounters', getConfig: 'getConfig' };

describe.each(recordedLevels)('recorded %s replies', (level) => {
	async function page() {
		const { server } = await signedInPage(TREE, level);
		const { treeState } = await import('./tree.svelte');
		const { cachedTree } = await import('$lib/cache/cache-reads');
		return { server, treeState, cachedTree };
	}

	afterEach(() => {
		vi.unstubAllGlobals();
	});

	describe('loading the tree', () => {
		it('names feeds and categories and counts their unread articles from one getCounters', async () => {
			const { server, treeState } = await page();
			await treeState.load();
			expect(treeState.error).toBeUndefined();
			expect(treeState.title('feed', 6)).toBe('Testbed Big Feed (320 items)');
			expect(treeState.title('cat', 2)).toBe('Web');
			expect(treeState.unread(6)).toBe(300);
			expect(treeState.unread(1, true)).toBe(16);
			expect(treeState.counts.global).toBe(337);
			expect(server.sent('getCounters')).toHaveLength(1);
		});

		it('keeps a copy on the device and shows it when the server cannot be reached', async () => {
			const first = await page();
			await first.treeState.load();
			// The server's tree is kept; the screen's has this device's Today among the special feeds.
			const shown = first.treeState.tree;
			expect((await first.cachedTree())?.tree).toEqual({
				...shown,
				special: shown?.special.filter((f) => f.id !== DEVICE_FEED.today)
			});
			expect(shown?.special.map((f) => f.title)).toContain('Today');
			vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
			first.treeState.reset();
			await first.treeState.load();
			expect(first.treeState.title('feed', 6)).toBe('Testbed Big Feed (320 items)');
			expect(first.treeState.unread(6)).toBe(300);
			expect(first.treeState.error).toMatch(/./);
		});

		it('two loads at once ask the server once', async () => {
			const { server, treeState } = await page();
			await Promise.all([treeState.load(), treeState.load()]);
			expect(server.sent('getFeedTree')).toHaveLength(1);
		});
	});

	describe('places and categories', () => {
		it('walks the tree in its order: special feeds, categories before their feeds, labels last', async () => {
			const { treeState } = await page();
			await treeState.load();
			const places = treeState.places(false).map((p) => `${p.kind}:${p.id}`);
			expect(places[0]).toBe('feed:-4');
			expect(places.indexOf('cat:2')).toBeLessThan(places.indexOf('feed:2'));
			expect(places.indexOf('cat:1')).toBeLessThan(places.indexOf('cat:2'));
			expect(places.slice(-2)).toEqual(['feed:-1026', 'feed:-1027']);
		});

		it('leaves out what has nothing unread when asked to', async () => {
			const { treeState } = await page();
			await treeState.load();
			const places = treeState.places(true).map((p) => `${p.kind}:${p.id}`);
			expect(places).not.toContain('cat:4');
			expect(places).not.toContain('feed:0');
			expect(places).toContain('feed:6');
		});

		it('offers the real categories, nested ones with their depth, for the subscribe form', async () => {
			const { treeState } = await page();
			await treeState.load();
			expect(treeState.categories()).toEqual([
				{ id: 1, title: 'Tech', depth: 0 },
				{ id: 2, title: 'Web', depth: 1 },
				{ id: 3, title: 'World', depth: 0 },
				{ id: 4, title: 'Empty', depth: 0 }
			]);
		});
	});

	describe('local changes and counters', () => {
		it('a read article moves its feed, its categories and All articles at once', async () => {
			const { treeState } = await page();
			await treeState.load();
			// Feed 2 sits in Web (2) inside Tech (1); an old article is not fresh.
			treeState.adjust({ feedId: 2, updated: 0, score: 0 }, -1);
			expect(treeState.unread(2)).toBe(6);
			expect(treeState.unread(2, true)).toBe(6);
			expect(treeState.unread(1, true)).toBe(15);
			expect(treeState.unread(-4)).toBe(336);
			expect(treeState.unread(-3)).toBe(337);
		});

		it('counters asked for before a local change do not undo it', async () => {
			const { treeState } = await page();
			await treeState.load();
			const mark = treeState.changeMark();
			const { recordedContent } = await import('$support/fake-fetch');
			const { parseCounters } = await import('$lib/api/parse');
			treeState.adjust({ feedId: 6, updated: 0, score: 0 }, -1);
			await treeState.applyCounters(parseCounters(recordedContent(level, 'getCounters')), mark);
			expect(treeState.unread(6)).toBe(299);
		});
	});

	describe('counters over a queued catch-up', () => {
		it('the tree loaded at a start, with a catch-up still queued, keeps the feed caught up', async () => {
			const replies = {
				getHeadlines: 'getHeadlines-header',
				getFeedTree: 'getFeedTree',
				getCounters: 'getCounters',
				getConfig: 'getConfig'
			};
			const { server } = await signedInPage(replies, level);
			const first = await import('./tree.svelte');
			await first.treeState.load();
			expect(first.treeState.unread(6)).toBe(300);
			// Offline, the reader caught up feed 6; the change is queued (applied to the cached counters).
			const { pendingItems } = await import('$lib/outbox/outbox');
			const { enqueueIntent } = await import('$lib/outbox/enqueue');
			await enqueueIntent({ type: 'catchup', feedId: 6, isCat: false, mode: 'all', offline: true });
			const { cachedTree } = await import('$lib/cache/cache-reads');
			const stored = await cachedTree();
			expect(stored?.counters?.feeds.find((f) => f.id === 6)?.unread).toBe(0);
			// The app is opened again (online) before the replay got the change through.
			vi.resetModules();
			const { session } = await import('./session.svelte');
			await session.restore();
			const again = await import('./tree.svelte');
			await again.treeState.load();
			expect(again.treeState.error).toBeUndefined();
			expect(server.sent('getCounters')).toHaveLength(2);
			expect(await pendingItems()).toHaveLength(1);
			const cache = await import('$lib/cache/cache-reads');
			expect({
				screen: again.treeState.unread(6),
				cache: (await cache.cachedTree())?.counters?.feeds.find((f) => f.id === 6)?.unread
			}).toEqual({ screen: 0, cache: 0 });
		});
	});
});
