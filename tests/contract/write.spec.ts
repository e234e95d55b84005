import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { caught } from '../support/caught';
import { ArticleField, UpdateMode, type Article, type TtrssClient } from '../../src/lib/api';
import { idsByTitle, loggedInClient, resetTestbed, sql, testbed, lockTestbed } from './testbed';
import { pageHeadlines } from '../../src/lib/api/paging';

// Every test starts from the seeded state: write ops must not see each other's effects.
let client: TtrssClient;

async function article(id: number): Promise<Article> {
	const [found] = await client.getArticle({ articleIds: [id] });
	if (!found) throw new Error(`article ${id} not found`);
	return found;
}

async function feedId(title: string): Promise<number> {
	const feeds = await client.getFeeds({ catId: -3 });
	const id = feeds.find((f) => f.title.startsWith(title))?.id;
	if (id === undefined) throw new Error(`no feed ${title}`);
	return id;
}

describe('write ops (real server)', () => {
	let unlock: () => void = () => {};
	// Other engineers' end-to-end runs reset the same server: wait for exclusive use (up to 10 min).
	beforeAll(async () => {
		unlock = await lockTestbed();
		resetTestbed();
	}, 600_000);
	beforeEach(async () => {
		resetTestbed();
		client = await loggedInClient();
	});
	afterAll(() => {
		try {
			resetTestbed();
		} finally {
			unlock();
		}
	});

	const flags = [
		{ field: ArticleField.Starred, key: 'marked', name: 'starred (0)' },
		{ field: ArticleField.Published, key: 'published', name: 'published (1)' },
		{ field: ArticleField.Unread, key: 'unread', name: 'unread (2)' }
	] as const;

	for (const { field, key, name } of flags) {
		it(`updateArticle field ${name}: modes 1 (set), 0 (clear), 2 (toggle)`, async () => {
			// "Tech news 03" is unread, not starred, not published in the seed.
			const ids = await idsByTitle(client, 'Tech news 03', 'Tech news 04');
			const [id] = ids as [number, number];
			const before = (await article(id))[key];

			const set = await client.updateArticle({ articleIds: ids, field, mode: UpdateMode.True });
			expect(set.updated).toBe(2);
			expect((await article(id))[key]).toBe(true);

			await client.updateArticle({ articleIds: [id], field, mode: UpdateMode.False });
			expect((await article(id))[key]).toBe(false);

			await client.updateArticle({ articleIds: [id], field, mode: UpdateMode.Toggle });
			expect((await article(id))[key]).toBe(true);
			await client.updateArticle({ articleIds: [id], field, mode: UpdateMode.Toggle });
			expect((await article(id))[key]).toBe(false);

			// The second read also shows through getHeadlines.
			await client.updateArticle({ articleIds: [id], field, mode: before ? 1 : 0 });
			const { headlines } = await client.getHeadlines({ feedId: -4, limit: 200 });
			const again = headlines.find((h) => h.id === id);
			if (again) expect(again[key]).toBe(before);
		});
	}

	it('updateArticle field note (3): sets, strips tags, ignores mode, clears', async () => {
		const [id] = (await idsByTitle(client, 'Tech news 03')) as [number];
		expect((await article(id)).note).toBeUndefined();
		await client.updateArticle({
			articleIds: [id],
			field: ArticleField.Note,
			mode: UpdateMode.False,
			data: 'Read <b>later</b> ✓'
		});
		expect((await article(id)).note).toBe('Read later ✓');
		const { headlines } = await client.getHeadlines({ feedId: await feedId('Testbed Tech News') });
		expect(headlines.find((h) => h.id === id)?.note).toBe('Read later ✓');
		await client.updateArticle({ articleIds: [id], field: ArticleField.Note, data: '' });
		expect((await article(id)).note).toBeUndefined();
	});

	it('updateArticle counts matched articles, not changed ones; bad field → INCORRECT_USAGE', async () => {
		const ids = await idsByTitle(client, 'Tech news 01', 'Web dev 01');
		// Both are already starred in the seed.
		const result = await client.updateArticle({ articleIds: ids, field: 0, mode: 1 });
		expect(result.updated).toBe(2);
		const error = await caught(
			client.updateArticle({ articleIds: ids, field: 9 as ArticleField, mode: 1 })
		);
		expect(error.code).toBe('INCORRECT_USAGE');
	});

	it('setArticleLabel assigns and removes the test bed labels', async () => {
		const labels = await client.getLabels();
		const later = labels.find((l) => l.caption === 'Later');
		const important = labels.find((l) => l.caption === 'Important');
		expect(later && important).toBeTruthy();
		const [id] = (await idsByTitle(client, 'Tech news 01')) as [number];
		const assigned = await client.setArticleLabel({
			articleIds: [id],
			labelId: later?.id ?? 0,
			assign: true
		});
		expect(assigned.updated).toBe(1);
		expect(
			(await client.getLabels(id))
				.filter((l) => l.checked)
				.map((l) => l.caption)
				.sort()
		).toEqual(['Important', 'Later']);
		expect((await article(id)).labels.map((l) => l.caption).sort()).toEqual(['Important', 'Later']);
		const inLabelFeed = await client.getHeadlines({
			feedId: later?.id ?? 0,
			viewMode: 'all_articles'
		});
		expect(inLabelFeed.headlines.map((h) => h.id)).toContain(id);

		await client.setArticleLabel({ articleIds: [id], labelId: important?.id ?? 0, assign: false });
		await client.setArticleLabel({ articleIds: [id], labelId: later?.id ?? 0, assign: false });
		expect((await article(id)).labels).toEqual([]);
		expect((await client.getLabels(id)).every((l) => !l.checked)).toBe(true);
	});

	it('catchupFeed modes 2week, 1week, 1day and all mark older articles read', async () => {
		const podcast = await feedId('Testbed Podcast');
		const ids = (await idsByTitle(
			client,
			'Episode 1:',
			'Episode 2:',
			'Episode 3:',
			'Episode 4:'
		)) as [number, number, number, number];
		// The API cannot age articles: date_entered (what catch-up modes compare) is set by SQL.
		sql(`UPDATE ttrss_entries SET date_entered = CASE id
			WHEN ${ids[0]} THEN NOW() - INTERVAL '2 days'
			WHEN ${ids[1]} THEN NOW() - INTERVAL '10 days'
			WHEN ${ids[2]} THEN NOW() - INTERVAL '20 days'
			ELSE NOW() END WHERE id IN (${ids.join(',')})`);
		const unreadOf = async (): Promise<boolean[]> => {
			const articles = await client.getArticle({ articleIds: ids });
			return ids.map((id) => articles.find((a) => a.id === id)?.unread ?? false);
		};
		expect(await unreadOf()).toEqual([true, true, true, true]);

		await client.catchupFeed({ feedId: podcast, isCat: false, mode: '2week' });
		expect(await unreadOf()).toEqual([true, true, false, true]);
		await client.catchupFeed({ feedId: podcast, isCat: false, mode: '1week' });
		expect(await unreadOf()).toEqual([true, false, false, true]);
		await client.catchupFeed({ feedId: podcast, isCat: false, mode: '1day' });
		expect(await unreadOf()).toEqual([false, false, false, true]);
		await client.catchupFeed({ feedId: podcast, isCat: false, mode: 'all' });
		expect(await unreadOf()).toEqual([false, false, false, false]);
		expect((await client.getCounters()).feeds.find((f) => f.id === podcast)?.unread).toBe(0);
	});

	it('catchupFeed of a category (is_cat true) includes its child categories', async () => {
		const categories = await client.getCategories({ includeEmpty: true });
		const tech = categories.find((c) => c.title === 'Tech');
		const world = categories.find((c) => c.title === 'World');
		await client.catchupFeed({ feedId: tech?.id ?? 0, isCat: true });
		const counters = await client.getCounters();
		const unreadOf = (title: string): number | undefined =>
			counters.categories.find((c) => c.id === categories.find((x) => x.title === title)?.id)
				?.unread;
		expect(unreadOf('Tech')).toBe(0);
		expect(unreadOf('Web')).toBe(0);
		// A sibling category is untouched.
		expect(unreadOf('World')).toBe(world?.unread);
		expect(await client.getUnread({ feedId: tech?.id ?? 0, isCat: true })).toBe(0);
	});

	it('shareToPublished creates a published article (tags stripped by this server)', async () => {
		const title = `Shared from the contract test ${Date.now()}`;
		await client.shareToPublished({
			title,
			url: 'http://feeds.test/shared',
			content: '<p>Shared <b>body</b></p>'
		});
		const { headlines } = await client.getHeadlines({
			feedId: -2,
			showContent: true,
			viewMode: 'all_articles'
		});
		const shared = headlines.find((h) => h.title === title);
		expect(shared).toMatchObject({ published: true, link: 'http://feeds.test/shared' });
		expect(shared?.content).toContain('Shared body');
		const [read] = await client.getArticle({ articleIds: [shared?.id ?? 0] });
		expect(read?.title).toBe(title);
	});

	it('pageHeadlines restarts when an article arrives at the top (check_first_id)', async () => {
		let total = 0;
		for await (const page of pageHeadlines(client, { feedId: -4, viewMode: 'all_articles' })) {
			total += page.length;
		}
		const pages = pageHeadlines(client, { feedId: -4, viewMode: 'all_articles' }, { pageSize: 50 });
		const first = await pages.next();
		const ids = new Set((first.value ?? []).map((h) => h.id));
		expect(ids.size).toBe(50);
		const title = `Arrived while paging ${Date.now()}`;
		await client.shareToPublished({ title, url: 'http://feeds.test/arrived', content: 'new' });
		const titles: string[] = [];
		for (let page = await pages.next(); !page.done; page = await pages.next()) {
			for (const h of page.value) {
				expect(ids.has(h.id)).toBe(false);
				ids.add(h.id);
				titles.push(h.title);
			}
		}
		// The seeded articles + the new one, each once.
		expect(ids.size).toBe(total + 1);
		expect(titles).toContain(title);
	});

	it('subscribeToFeed, updateFeed and unsubscribeFeed on a feed of the feeds host', async () => {
		const url = `http://${testbed.feedsHost}/feeds/tech-news.xml?copy=contract`;
		const world = (await client.getCategories()).find((c) => c.title === 'World');
		const added = await client.subscribeToFeed({ feedUrl: url, categoryId: world?.id });
		expect(added).toMatchObject({ code: 1, status: 'added' });
		const id = added.feedId ?? 0;
		expect(id).toBeGreaterThan(0);

		const feeds = await client.getFeeds({ catId: world?.id ?? 0 });
		expect(feeds.find((f) => f.id === id)).toMatchObject({ feedUrl: url, catId: world?.id });
		expect((await client.subscribeToFeed({ feedUrl: url })).status).toBe('already-subscribed');

		// Not fetched yet; updateFeed fetches it at once on this server. Its articles are not
		// added: the server skips guids the user already has (the original tech-news feed).
		const before = (await client.getFeeds({ catId: world?.id ?? 0 })).find((f) => f.id === id);
		expect(before?.lastUpdated).toBe(0);
		await client.updateFeed(id);
		const after = (await client.getFeeds({ catId: world?.id ?? 0 })).find((f) => f.id === id);
		expect(after?.lastUpdated).toBeGreaterThan(Date.now() / 1000 - 600);
		expect((await client.getHeadlines({ feedId: id })).headlines).toEqual([]);

		await client.unsubscribeFeed(id);
		expect((await client.getFeeds({ catId: -3 })).some((f) => f.id === id)).toBe(false);
		// A feed that is not there: Debian's server says FEED_NOT_FOUND, the current one the generic
		// E_OPERATION_FAILED (no level announces the change).
		expect((await caught(client.unsubscribeFeed(id))).code).toBe(
			testbed.server === 'debian' ? 'FEED_NOT_FOUND' : 'E_OPERATION_FAILED'
		);
	});

	it('subscribeToFeed reports a download failure as code 5 with the message', async () => {
		const count = (await client.getFeeds({ catId: -3 })).length;
		const failed = await client.subscribeToFeed({
			feedUrl: `http://${testbed.feedsHost}/feeds/no-such-feed.xml`
		});
		expect(failed).toMatchObject({ code: 5, status: 'download-failed' });
		expect(failed.message).toMatch(/404/);
		expect((await client.getFeeds({ catId: -3 })).length).toBe(count);
	});
});
