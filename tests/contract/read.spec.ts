import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedTree, Headline, TreeCategory, TtrssClient } from '../../src/lib/api';
import { idsByTitle, loggedInClient, resetTestbed, lockTestbed } from './testbed';
import { pageHeadlines } from '../../src/lib/api/paging';

let client: TtrssClient;

function feedIdByTitle(tree: FeedTree, title: string): number {
	const walk = (categories: TreeCategory[]): number | undefined => {
		for (const c of categories) {
			const hit = c.feeds.find((f) => f.title === title)?.id ?? walk(c.categories);
			if (hit !== undefined) return hit;
		}
		return undefined;
	};
	const id = walk(tree.categories) ?? tree.feeds.find((f) => f.title === title)?.id;
	if (id === undefined) throw new Error(`no feed titled ${title}`);
	return id;
}

/** A comparable outline of a tree: titles and feed ids, without counters. */
function outline(tree: FeedTree): unknown {
	const cat = (c: TreeCategory): unknown => ({
		id: c.id,
		title: c.title,
		feeds: c.feeds.map((f) => f.id).sort((a, b) => a - b),
		categories: c.categories
			.map(cat)
			.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
	});
	return {
		categories: tree.categories
			.map(cat)
			.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
		special: tree.special.map((f) => f.id).sort((a, b) => a - b),
		labels: tree.labels.map((f) => f.title).sort(),
		feeds: tree.feeds.map((f) => f.id)
	};
}

describe('read ops (real server)', () => {
	let unlock: () => void = () => {};
	// Other engineers' end-to-end runs reset the same server: wait for exclusive use (up to 10 min).
	beforeAll(async () => {
		unlock = await lockTestbed();
		resetTestbed();
		client = await loggedInClient();
	}, 600_000);
	afterAll(() => {
		try {
			resetTestbed();
		} finally {
			unlock();
		}
	});

	it('getUnread, getCounters and getFeeds agree on unread counts', async () => {
		const unread = await client.getUnread();
		const counters = await client.getCounters();
		expect(counters.globalUnread).toBe(unread);
		const feeds = await client.getFeeds({ catId: -3 });
		expect(feeds.length).toBeGreaterThanOrEqual(6);
		expect(counters.subscribedFeeds).toBe(feeds.length);
		const sum = feeds.reduce((n, f) => n + f.unread, 0);
		expect(sum).toBe(unread);
		for (const feed of feeds) {
			expect(counters.feeds.find((c) => c.id === feed.id)?.unread).toBe(feed.unread);
			expect(feed.feedUrl).toMatch(/^http:\/\/feeds\.test\//);
		}
		// Each category appears once, though the 2021 server repeats the last one.
		const ids = counters.categories.map((c) => c.id);
		expect(new Set(ids).size).toBe(ids.length);
		// Labels come in the current numbering.
		expect(counters.labels.every((l) => l.id < -1024)).toBe(true);
	});

	it('getUnread of one feed and of a category (is_cat as a JSON boolean)', async () => {
		const tree = await client.loadFeedTree();
		const tech = tree.categories.find((c) => c.title === 'Tech');
		expect(tech).toBeDefined();
		const techFeed = feedIdByTitle(tree, 'Testbed Tech News');
		const feeds = await client.getFeeds({ catId: -3 });
		const expected = feeds.find((f) => f.id === techFeed)?.unread;
		expect(await client.getUnread({ feedId: techFeed, isCat: false })).toBe(expected);
		expect(await client.getUnread({ feedId: tech?.id ?? 0, isCat: true })).toBeGreaterThanOrEqual(
			expected ?? 0
		);
	});

	it('getCategories lists categories; enableNested only the top level', async () => {
		const all = await client.getCategories({ includeEmpty: true });
		const titles = all.map((c) => c.title);
		expect(titles).toEqual(expect.arrayContaining(['Tech', 'Web', 'World', 'Empty']));
		const top = await client.getCategories({ includeEmpty: true, enableNested: true });
		expect(top.map((c) => c.title)).not.toContain('Web');
		expect(top.map((c) => c.title)).toContain('Tech');
	});

	it('getFeedTree and the getCategories + getFeeds fallback give the same tree', async () => {
		const tree = await client.loadFeedTree();
		expect(tree.source).toBe('getFeedTree');
		const tech = tree.categories.find((c) => c.title === 'Tech');
		expect(tech?.categories.map((c) => c.title)).toEqual(['Web']);
		expect(tree.special.map((f) => f.id).sort((a, b) => a - b)).toEqual([-6, -4, -3, -2, -1, 0]);
		expect(tree.labels.map((l) => l.title).sort()).toEqual(['Important', 'Later']);
		const fallback = await client.loadFeedTree({ forceFallback: true });
		expect(fallback.source).toBe('getCategories+getFeeds');
		expect(outline(fallback)).toEqual(outline(tree));
	});

	it('getLabels returns label objects; getLabels(article) marks the checked ones', async () => {
		const labels = await client.getLabels();
		expect(labels.map((l) => l.caption).sort()).toEqual(['Important', 'Later']);
		const important = labels.find((l) => l.caption === 'Important');
		expect(important).toMatchObject({ fgColor: '#ffffff', bgColor: '#d32f2f', checked: false });
		expect(important?.id).toBeLessThan(-1024);
		const [article] = await idsByTitle(client, 'Tech news 01');
		const forArticle = await client.getLabels(article);
		expect(forArticle.find((l) => l.caption === 'Important')?.checked).toBe(true);
		expect(forArticle.find((l) => l.caption === 'Later')?.checked).toBe(false);
	});

	it('getHeadlines caps the limit at 200 and normalises the fields', async () => {
		const { headlines, header } = await client.getHeadlines({
			feedId: -4,
			limit: 500,
			viewMode: 'all_articles'
		});
		expect(header).toBeUndefined();
		expect(headlines).toHaveLength(200);
		for (const h of headlines) {
			expect(typeof h.id).toBe('number');
			expect(typeof h.unread).toBe('boolean');
			expect(typeof h.updated).toBe('number');
			expect(h.tags.every((t) => t !== '')).toBe(true);
		}
	});

	it('getHeadlines of a tag feed (a string id) at level 15: the articles carrying the tag', async () => {
		const { headlines } = await client.getHeadlines({ feedId: 'pwa', limit: 50 });
		expect(headlines.length).toBeGreaterThan(0);
		expect(headlines.every((h) => h.tags.includes('pwa'))).toBe(true);
		expect(headlines.map((h) => h.title)).toContain('Web dev 01: IndexedDB');
	});

	it('getHeadlines of the starred feed: labels as objects, notes as strings', async () => {
		const { headlines } = await client.getHeadlines({ feedId: -1, limit: 50 });
		const first = headlines.find((h) => h.title.startsWith('Tech news 01'));
		expect(first).toMatchObject({ marked: true, note: 'Seeded note: read this first' });
		expect(first?.labels).toEqual([
			{
				id: expect.any(Number) as number,
				caption: 'Important',
				fgColor: '#ffffff',
				bgColor: '#d32f2f'
			}
		]);
		const noNote = headlines.find((h) => h.title.startsWith('Web dev 01'));
		expect(noNote?.note).toBeUndefined();
	});

	it('getHeadlines with attachments, excerpt and content; getArticle reads the same article', async () => {
		const [episode1] = await idsByTitle(client, 'Episode 1:');
		const tree = await client.loadFeedTree();
		const podcast = tree.categories
			.flatMap((c) => c.feeds)
			.find((f) => f.title.toLowerCase().includes('podcast'));
		const { headlines } = await client.getHeadlines({
			feedId: podcast?.id ?? 0,
			showExcerpt: true,
			excerptLength: 40,
			showContent: true,
			includeAttachments: true,
			viewMode: 'all_articles'
		});
		const h = headlines.find((x) => x.id === episode1) as Headline;
		expect(h.attachments.length).toBeGreaterThan(0);
		const attachment = h.attachments[0];
		expect(attachment?.contentType).toMatch(/^audio\//);
		expect(attachment?.contentUrl).toMatch(/^http:\/\/feeds\.test\//);
		expect(Object.keys(attachment ?? {}).some((k) => /^\d+$/.test(k))).toBe(false);
		expect(h.excerpt?.length).toBeGreaterThan(1);
		expect(h.content).toBeDefined();
		const [article] = await client.getArticle({ articleIds: [episode1 ?? 0] });
		expect(article).toMatchObject({ id: episode1, title: h.title, marked: true });
		expect(article?.attachments.map((a) => a.contentUrl)).toEqual(
			h.attachments.map((a) => a.contentUrl)
		);
	});

	it('getArticle answers a list and drops unknown ids', async () => {
		const ids = await idsByTitle(client, 'Tech news 01', 'Tech news 02');
		const articles = await client.getArticle({ articleIds: [...ids, 99_999_999] });
		expect(articles.map((a) => a.id).sort()).toEqual([...ids].sort());
	});

	it('include_header gives the first id; pageHeadlines reads all 320 big-feed articles', async () => {
		const tree = await client.loadFeedTree();
		const big = tree.feeds
			.concat(tree.categories.flatMap((c) => c.feeds))
			.find((f) => f.title.toLowerCase().includes('big'));
		const { header, headlines } = await client.getHeadlines({
			feedId: big?.id ?? 0,
			limit: 3,
			includeHeader: true,
			viewMode: 'all_articles'
		});
		expect(header).toMatchObject({ id: big?.id, isCat: false, firstIdChanged: false });
		expect(header?.firstId).toBe(headlines[0]?.id);
		const seen: number[] = [];
		const sizes: number[] = [];
		for await (const page of pageHeadlines(client, {
			feedId: big?.id ?? 0,
			viewMode: 'all_articles'
		})) {
			sizes.push(page.length);
			seen.push(...page.map((h) => h.id));
		}
		expect(sizes).toEqual([200, 120]);
		expect(new Set(seen).size).toBe(320);
	});
});
