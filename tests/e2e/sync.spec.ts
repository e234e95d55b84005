/**
 * The sync engine against the real test bed: new articles arrive on the server (a feed that
 * feeds.test starts serving, fetched by update.php), another device changes read/star/publish
 * state through the API, and the open app brings its offline copy up to date by itself, with no
 * click. Offline afterwards, the new articles and the changed state are there. When nothing
 * changed, a sync sends one getCounters and nothing else.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { ArticleField, UpdateMode } from '../../src/lib/api';
import { resetTestbed, testbed, testbedCondition } from '../support/testbed';
import { cutNetwork, readStore, recordApiCalls, serverClient, signIn } from './offline-support';
import { openSearch } from './reader-support';
import { expect, test } from './support/fixtures';
import { pageHeadlines } from '../../src/lib/api/paging';

const FEED_NAME = 'bench-e2e-sync.xml';
// Outside the repository, only symlinked into the served folder while tt-rss fetches it: the
// test bed's seed hash counts regular files only (as bench/setup.sh does).
const FEED_DIR = '/tmp/ttrss-e2e-sync';
const LINK = fileURLToPath(new URL(`../../testbed/fixtures/feeds/${FEED_NAME}`, import.meta.url));
const ARRIVALS = 12;

function writeFeed(): void {
	const items = Array.from({ length: ARRIVALS }, (_, i) => {
		const n = String(i + 1).padStart(2, '0');
		return `<item><title>Sync arrival ${n}</title><guid isPermaLink="false">sync-arrival-${n}</guid>
<link>http://${testbed.feedsHost}/sync/${n}</link><pubDate>${new Date(Date.UTC(2026, 10, 1, i)).toUTCString()}</pubDate>
<description><![CDATA[<p>Body of sync arrival ${n}, kept for offline reading.</p>]]></description></item>`;
	}).join('\n');
	mkdirSync(FEED_DIR, { recursive: true });
	writeFileSync(
		`${FEED_DIR}/${FEED_NAME}`,
		`<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Testbed Sync Arrivals</title>
<link>http://${testbed.feedsHost}/</link><description>New items for the sync test</description>
${items}</channel></rss>`
	);
	chmodSync(FEED_DIR, 0o755);
	chmodSync(`${FEED_DIR}/${FEED_NAME}`, 0o644);
	rmSync(LINK, { force: true });
	symlinkSync(`${FEED_DIR}/${FEED_NAME}`, LINK);
}

/** Another device: subscribes to the new feed and has the server fetch it (update.php). */
async function articlesArrive(): Promise<number> {
	writeFeed();
	try {
		const client = await serverClient();
		const result = await client.subscribeToFeed({
			feedUrl: `http://${testbed.feedsHost}/feeds/${FEED_NAME}`
		});
		const feedId = result.feedId;
		if (feedId === undefined) throw new Error(`subscribe failed: ${JSON.stringify(result)}`);
		testbedCondition('update-feed', String(feedId));
		return feedId;
	} finally {
		rmSync(LINK, { force: true });
	}
}

async function serverIdOf(title: string): Promise<number> {
	const client = await serverClient();
	for await (const page of pageHeadlines(client, { feedId: -4, viewMode: 'all_articles' })) {
		const hit = page.find((h) => h.title.startsWith(title));
		if (hit) return hit.id;
	}
	throw new Error(`no article ${title}`);
}

interface SyncRecord {
	lastSyncAt?: number;
}

async function lastSyncAt(page: Page): Promise<number> {
	const records = await readStore<unknown[]>(page, 'sync');
	return Math.max(
		0,
		...records.map((r) => (r && typeof r === 'object' ? ((r as SyncRecord).lastSyncAt ?? 0) : 0))
	);
}

interface CachedCopy {
	unread: boolean;
	marked: boolean;
	published: boolean;
	content: string;
}

/** One article of the offline copy (the store's keys are numbers, which readStore cannot ask). */
async function cachedArticle(page: Page, id: number): Promise<CachedCopy | undefined> {
	const all = await readStore<(CachedCopy & { id: number })[]>(page, 'articles');
	return all.find((a) => a.id === id);
}

test.beforeAll(() => {
	resetTestbed();
});

test.afterAll(() => {
	rmSync(LINK, { force: true });
	rmSync(FEED_DIR, { recursive: true, force: true });
	// The next file starts from the seed (no extra feed, no changed flags).
	resetTestbed();
});

test('right after a sign-in the header says when the data was loaded, not "never"', async ({
	page
}) => {
	await signIn(page);
	await expect(page.getByTestId('last-updated')).toHaveText(/Updated just now/);
});

test('the app syncs by itself: new articles and state changed elsewhere are there offline; an idle sync is one getCounters', async ({
	context,
	page
}) => {
	// A short interval between syncs while visible, without a special build.
	await page.addInitScript(() => localStorage.setItem('reader.syncIntervalMs', '1000'));
	await signIn(page);
	// The first sync after sign-in, by itself.
	await expect.poll(() => lastSyncAt(page), { timeout: 30_000 }).toBeGreaterThan(0);

	// Another device: new articles arrive; one article read, one starred, one published.
	const readElsewhere = await serverIdOf('Tech news 04');
	const starredElsewhere = await serverIdOf('Web dev 04');
	const publishedElsewhere = await serverIdOf('Tech news 05');
	expect((await cachedArticle(page, readElsewhere))?.unread).toBe(true);
	const client = await serverClient();
	await client.updateArticle({
		articleIds: [readElsewhere],
		field: ArticleField.Unread,
		mode: UpdateMode.False
	});
	await client.updateArticle({
		articleIds: [starredElsewhere],
		field: ArticleField.Starred,
		mode: UpdateMode.True
	});
	await client.updateArticle({
		articleIds: [publishedElsewhere],
		field: ArticleField.Published,
		mode: UpdateMode.True
	});
	const feedId = await articlesArrive();
	const arrival = await serverIdOf('Sync arrival 12');

	// No click: the next sync brings it all, and the feed tree shows the new feed.
	await expect
		.poll(async () => (await cachedArticle(page, arrival))?.content ?? '', { timeout: 30_000 })
		.toContain('Body of sync arrival 12');
	await expect
		.poll(async () => (await cachedArticle(page, readElsewhere))?.unread, { timeout: 30_000 })
		.toBe(false);
	expect((await cachedArticle(page, starredElsewhere))?.marked).toBe(true);
	expect((await cachedArticle(page, publishedElsewhere))?.published).toBe(true);
	await expect(
		page.locator('nav[aria-label="Feeds"]').getByRole('link', { name: /Testbed Sync Arrivals/ })
	).toBeVisible();

	// Nothing changes now: each sync is one getCounters. A sync starts only once the one before
	// has updated the screen, so between the ends of two syncs after an idle one only the second
	// sync's requests are made. (The test bed's update daemon can still add an article now and then:
	// the sync that finds it reads it, and the next ones are idle again; a sync that kept asking for
	// more would never give an idle window.)
	const idleWindow = async (): Promise<string[]> => {
		const start = await lastSyncAt(page);
		await expect.poll(() => lastSyncAt(page), { timeout: 15_000 }).toBeGreaterThan(start);
		const calls = recordApiCalls(context);
		const idle = await lastSyncAt(page);
		await expect.poll(() => lastSyncAt(page), { timeout: 15_000 }).toBeGreaterThan(idle);
		return calls.map((c) => c.op);
	};
	await expect.poll(idleWindow, { timeout: 90_000 }).toEqual(['getCounters']);

	// Offline: the new feed's articles and their bodies come from the offline copy.
	await cutNetwork(context);
	await page.goto(`/feed/${feedId}`);
	await page
		.getByRole('link', { name: /Sync arrival 12/ })
		.first()
		.click();
	await expect(page.locator('article')).toContainText('Body of sync arrival 12');
	expect(await page.evaluate(() => navigator.onLine)).toBe(false);

	// And the search box finds them offline, in the local index the sync kept current.
	await page.goto(`/feed/${feedId}`);
	await openSearch(page);
	await page.getByLabel('Search headlines').fill('kept for offline reading');
	await page.getByLabel('Search in').selectOption({ label: 'This feed' });
	await page.getByRole('button', { name: 'Search', exact: true }).click();
	await expect(page.getByText(/Results on this device/)).toBeVisible();
	await expect(page.getByRole('button', { name: /^Star “Sync arrival \d\d/ })).toHaveCount(
		ARRIVALS
	);
});

test('state changed elsewhere reaches the open list at the next sync, without a reload', async ({
	page
}) => {
	await page.addInitScript(() => localStorage.setItem('reader.syncIntervalMs', '1000'));
	await signIn(page);
	await expect.poll(() => lastSyncAt(page), { timeout: 30_000 }).toBeGreaterThan(0);
	await page
		.locator('nav[aria-label="Feeds"]')
		.getByRole('link', { name: /^Testbed Tech News/ })
		.click();
	const star = page.getByRole('button', { name: /^Star “Tech news 03/ });
	await expect(star).toHaveAttribute('aria-pressed', 'false');

	// Another device stars it: the open list shows it at the next sync, the reader's place kept.
	const id = await serverIdOf('Tech news 03');
	const client = await serverClient();
	await client.updateArticle({
		articleIds: [id],
		field: ArticleField.Starred,
		mode: UpdateMode.True
	});
	await expect(star).toHaveAttribute('aria-pressed', 'true', { timeout: 30_000 });
	expect(page.url()).toMatch(/\/feed\/1$/);
	await client.updateArticle({
		articleIds: [id],
		field: ArticleField.Starred,
		mode: UpdateMode.False
	});
});

test('an offline pack kept from Settings holds its read articles too, with their bodies', async ({
	context,
	page
}) => {
	// Read articles show in the list only with "All articles" (adaptive shows the unread ones).
	await page.addInitScript(() =>
		localStorage.setItem('reader.settings', JSON.stringify({ viewMode: 'all_articles' }))
	);
	await signIn(page);
	await page.getByRole('link', { name: 'Settings' }).click();
	await page.getByLabel('Category, feed or label').selectOption({ label: 'Testbed Podcast' });
	await page.getByLabel('Newest articles').fill('5');
	await page.getByRole('button', { name: 'Keep offline' }).click();
	await expect(page.getByRole('list', { name: 'Offline packs' })).toContainText('Testbed Podcast');
	// "Episode 5" is read: only the pack keeps it. The pack syncs at once, by itself.
	const episode = await serverIdOf('Episode 5');
	await expect
		.poll(async () => (await cachedArticle(page, episode))?.content ?? '', { timeout: 30_000 })
		.not.toBe('');

	await cutNetwork(context);
	await page.reload();
	await page
		.locator('nav[aria-label="Feeds"]')
		.getByRole('link', { name: /Testbed Podcast/ })
		.click();
	await page
		.getByRole('link', { name: /Episode 5/ })
		.first()
		.click();
	await expect(page.locator('article')).toContainText('Episode 5');
});
