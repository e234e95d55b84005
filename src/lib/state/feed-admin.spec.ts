import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordedLevels } from '$support/fake-fetch';
import { signedInPage, type Replies } from '$support/recorded-server';

const READER: Replies = {
	getHeadlines: 'getHeadlines-header',
	getFeedTree: 'getFeedTree',
	getCounters: 'getCounters',
	getConfig: 'getConfig',
	updateFeed: 'updateFeed',
	unsubscribeFeed: 'unsubscribeFeed',
	subscribeToFeed: 'subscribeToFeed-added'
};

describe.each(recordedLevels)('recorded %s replies', (level) => {
	async function page(replies: Replies = READER) {
		const { server } = await signedInPage(replies, level);
		const { headlines, listQueryFor } = await import('./headlines.svelte');
		const { toasts } = await import('./toasts.svelte');
		const admin = await import('./feed-admin');
		await headlines.open(listQueryFor('feed', '4', { viewMode: 'adaptive', sortOrder: 'default' }));
		return { server, toasts, ...admin };
	}

	afterEach(() => {
		vi.unstubAllGlobals();
	});

	describe('feed administration', () => {
		it('“Update now” has tt-rss fetch the feed, then reads the list and the counters again', async () => {
			const { server, toasts, updateFeedNow } = await page();
			expect(await updateFeedNow(4, 'Testbed Podcast')).toBe(true);
			expect(server.ops().slice(-3)).toEqual(['updateFeed', 'getHeadlines', 'getCounters']);
			expect(server.sent('updateFeed')).toEqual([expect.objectContaining({ feed_id: '4' })]);
			expect(toasts.items.at(-1)).toMatchObject({
				kind: 'info',
				text: '“Testbed Podcast” was updated.'
			});
		});

		it('a refused update says why and changes nothing else', async () => {
			const { server, toasts, updateFeedNow } = await page({
				...READER,
				updateFeed: () => undefined
			});
			expect(await updateFeedNow(4, 'Testbed Podcast')).toBe(false);
			expect(server.ops().at(-1)).toBe('updateFeed');
			expect(toasts.items.at(-1)?.kind).toBe('error');
		});

		it('unsubscribing leaves the feed’s screen before the tree is read again without it', async () => {
			const { server, unsubscribeFrom } = await page();
			const leave = vi.fn(() => {
				expect(server.sent('getFeedTree')).toEqual([]);
				return Promise.resolve();
			});
			expect(await unsubscribeFrom(4, 'Testbed Podcast', leave)).toBe(true);
			expect(leave).toHaveBeenCalledOnce();
			expect(server.sent('unsubscribeFeed')).toEqual([expect.objectContaining({ feed_id: '4' })]);
			expect(server.sent('getFeedTree')).toHaveLength(1);
		});

		it('a feed that was added appears in the tree', async () => {
			const { server, subscribeTo } = await page();
			const result = await subscribeTo('http://feeds.test/feeds/podcast.xml', 0);
			expect(result).toMatchObject({ status: 'added', feedId: 9 });
			expect(server.sent('subscribeToFeed')).toEqual([
				expect.objectContaining({
					feed_url: 'http://feeds.test/feeds/podcast.xml',
					category_id: '0'
				})
			]);
			expect(server.sent('getFeedTree')).toHaveLength(1);
		});
	});
});
