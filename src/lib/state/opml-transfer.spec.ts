import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordedLevels } from '$support/fake-fetch';
import { newJob } from '$lib/opml/job';
import { signedInPage, type Replies } from '$support/recorded-server';

const SERVER: Replies = {
	getFeeds: 'getFeeds-all',
	getHeadlines: 'getHeadlines-header',
	getFeedTree: 'getFeedTree',
	getCounters: 'getCounters',
	getConfig: 'getConfig',
	subscribeToFeed: 'subscribeToFeed-added'
};

const fileFeed = (xmlUrl: string, categoryPath: string[] = []) => ({
	title: xmlUrl,
	xmlUrl,
	categoryPath
});

describe.each(recordedLevels)('the subscriptions page’s server calls (recorded %s)', (level) => {
	async function page(replies: Replies = SERVER) {
		const { server, session } = await signedInPage(replies, level);
		const opml = await import('./opml-transfer');
		const { treeState } = await import('./tree.svelte');
		return { server, session, treeState, ...opml };
	}

	afterEach(() => {
		vi.unstubAllGlobals();
	});

	it('plans an import against the server’s feeds and categories as they are now', async () => {
		const { server, planOpmlImport } = await page();
		const plan = await planOpmlImport([
			fileFeed('HTTP://feeds.test/feeds/podcast.xml', ['Tech']),
			fileFeed('http://feeds.test/new.xml', ['Gardening'])
		]);
		expect(server.sent('getFeeds')).toEqual([expect.objectContaining({ cat_id: '-4' })]);
		expect(server.ops()).toContain('getFeedTree');
		expect(plan.feeds.map((f) => [f.xmlUrl, f.alreadySubscribed, f.missing])).toEqual([
			['HTTP://feeds.test/feeds/podcast.xml', true, false],
			['http://feeds.test/new.xml', false, true]
		]);
		expect(plan.missing).toEqual(['Gardening']);
	});

	it('a plan the server could not answer fails with the server’s error', async () => {
		const { planOpmlImport } = await page({ ...SERVER, getFeeds: () => undefined });
		await expect(planOpmlImport([fileFeed('http://feeds.test/new.xml')])).rejects.toThrow();
	});

	it('runs an import job feed by feed, then reads the tree again', async () => {
		const { server, session, runOpmlImport } = await page();
		const job = newJob(
			session.account ?? '',
			['a', 'b'].map((name) => ({
				title: name,
				xmlUrl: `http://feeds.test/${name}.xml`,
				wanted: undefined,
				categoryId: 0,
				missing: false,
				alreadySubscribed: false
			})),
			() => 'Uncategorized'
		);
		const seen: number[] = [];
		const done = await runOpmlImport(job, (j) =>
			seen.push(j.items.filter((i) => i.outcome).length)
		);
		expect(seen).toEqual([1, 2]);
		expect(done.items.map((i) => i.outcome?.status)).toEqual(['added', 'added']);
		expect(server.sent('subscribeToFeed').map((r) => r.feed_url)).toEqual([
			'http://feeds.test/a.xml',
			'http://feeds.test/b.xml'
		]);
		expect(server.ops().at(-1)).not.toBe('subscribeToFeed');
		expect(server.ops().slice(server.ops().lastIndexOf('subscribeToFeed'))).toContain(
			'getFeedTree'
		);
	});

	it('exports the server’s subscriptions as a file', async () => {
		const { exportOpml } = await page();
		const file = await exportOpml();
		expect(file.feedCount).toBe(7);
		expect(file.fileName).toMatch(/\.opml$/);
		expect(file.text).toContain('http://feeds.test/feeds/podcast.xml');
	});
});
