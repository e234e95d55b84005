/**
 * Duplicates against the real test bed: two feeds served by feeds.test carry the same stories —
 * one by its link (the second copy's link has `www.`, a trailing slash and utm/fbclid parameters,
 * and another title), one by its title and text (other links, a day apart) — and one story each
 * under the same generic title ("Daily digest", other links and texts). tt-rss fetches both; the
 * app shows each same story once with "Also in: <the other feed>", the article says what its read
 * takes along ("Also marks read: …"), opening one marks both read on the server, so does the
 * selection's Mark read, offline the cached list is grouped the same way, the two digests stay two
 * rows and reading one leaves the other unread, and the setting in Settings → Reading shows every
 * row again. Desktop and phone.
 */
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { resetTestbed, testbed, testbedCondition } from '../support/testbed';
import {
	feeds,
	openFeed,
	headlineList,
	listAnswered,
	serverClient,
	serverUnreadOf,
	serverHeadlines,
	signIn
} from './reader-support';
import { expect, test } from './support/fixtures';

// Outside the repository, only symlinked into the served folder while tt-rss fetches them (the
// test bed's seed hash counts regular files only), as tests/e2e/alerts.spec.ts does.
const FEED_DIR = '/tmp/ttrss-e2e-duplicates';
const served = (name: string): string =>
	fileURLToPath(new URL(`../../testbed/fixtures/feeds/${name}`, import.meta.url));

const HOST = testbed.feedsHost;
const HARBOUR = 'Testbed Harbour Times';
const COAST = 'Testbed Coast Daily';
/** The link story: the same page, another title in each feed. */
const LINK_A = 'Harbour bridge reopens after two years of repairs';
const LINK_B = 'Bridge is open again: traffic returns to the harbour';
/** The title story: the same title in both feeds, other links. */
const TITLE_STORY = 'Library opens a new reading room by the sea';
/** Each feed's own post under one generic title: two stories, never one row. */
const DIGEST = 'Daily digest';
/** The title story's text, the same in both feeds (syndicated). */
const TITLE_TEXT =
	'The town library opened a reading room on the pier on Saturday, with two thousand books and a view of the bay.';
/** In one feed only. */
const ONLY_A = 'Fishing fleet returns early';
const ONLY_B = 'Lighthouse keeper retires';

interface Item {
	title: string;
	guid: string;
	link: string;
	day: number;
	/** The item's text; by default its title as its feed tells it. */
	text?: string;
}

function feedXml(title: string, slug: string, items: Item[]): string {
	const body = items
		.map(
			(item) => `<item><title>${item.title}</title><guid isPermaLink="false">${item.guid}</guid>
<link>${item.link.replace(/&/g, '&amp;')}</link><pubDate>${new Date(Date.UTC(2026, 10, item.day, 8)).toUTCString()}</pubDate>
<description><![CDATA[<p>${item.text ?? `${item.title}, as ${title} tells it.`}</p>]]></description></item>`
		)
		.join('\n');
	return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>${title}</title>
<link>http://${HOST}/${slug}/</link><description>Duplicates test feed</description>
${body}</channel></rss>`;
}

const FEEDS: { name: string; xml: string }[] = [
	{
		name: 'e2e-dupes-harbour.xml',
		xml: feedXml(HARBOUR, 'harbour', [
			{ title: LINK_A, guid: 'harbour-1', link: `http://${HOST}/stories/harbour-bridge`, day: 20 },
			{
				title: TITLE_STORY,
				guid: 'harbour-2',
				link: `http://${HOST}/harbour/library`,
				day: 19,
				text: TITLE_TEXT
			},
			{ title: ONLY_A, guid: 'harbour-3', link: `http://${HOST}/harbour/fleet`, day: 18 },
			{ title: DIGEST, guid: 'harbour-4', link: `http://${HOST}/harbour/digest-17`, day: 17 }
		])
	},
	{
		name: 'e2e-dupes-coast.xml',
		xml: feedXml(COAST, 'coast', [
			{
				title: LINK_B,
				guid: 'coast-1',
				link: `https://www.${HOST}/stories/harbour-bridge/?utm_source=rss&utm_medium=feed&fbclid=abc`,
				day: 20
			},
			{
				title: TITLE_STORY,
				guid: 'coast-2',
				link: `http://${HOST}/coast/2026/library`,
				day: 20,
				text: TITLE_TEXT
			},
			{ title: ONLY_B, guid: 'coast-3', link: `http://${HOST}/coast/lighthouse`, day: 18 },
			{ title: DIGEST, guid: 'coast-4', link: `http://${HOST}/coast/p/98765`, day: 17 }
		])
	}
];

/** Subscribes the reader to both feeds and has tt-rss fetch them now. */
async function subscribeBoth(): Promise<void> {
	mkdirSync(FEED_DIR, { recursive: true });
	chmodSync(FEED_DIR, 0o755);
	const client = await serverClient();
	// Into the seed's category without feeds: its list holds these feeds' articles only.
	const empty = (await client.getCategories({ includeEmpty: true })).find(
		(c) => c.title === 'Empty'
	);
	if (!empty) throw new Error('no category Empty in the seed');
	for (const { name, xml } of FEEDS) {
		writeFileSync(`${FEED_DIR}/${name}`, xml);
		chmodSync(`${FEED_DIR}/${name}`, 0o644);
		rmSync(served(name), { force: true });
		symlinkSync(`${FEED_DIR}/${name}`, served(name));
		try {
			const result = await client.subscribeToFeed({
				feedUrl: `http://${HOST}/feeds/${name}`,
				categoryId: empty.id
			});
			if (result.feedId === undefined)
				throw new Error(`subscribe failed: ${JSON.stringify(result)}`);
			testbedCondition('update-feed', String(result.feedId));
		} finally {
			rmSync(served(name), { force: true });
		}
	}
}

test.beforeEach(async () => {
	resetTestbed();
	await subscribeBoth();
});

test.afterAll(() => {
	// The next spec finds the seed as it was (each resets, but not every one before each test).
	if (!process.env.KEEP) resetTestbed();
});

/** The category both feeds are in (and no other). */
const CATEGORY = /^Empty\b/;

async function openCategory(page: Page): Promise<void> {
	await openFeed(page, CATEGORY);
	await listAnswered(page);
}

function rowsOf(page: Page, titles: RegExp) {
	return headlineList(page).locator('[data-article-id]').filter({ hasText: titles });
}

const LINK_STORY = new RegExp(`${LINK_A}|${LINK_B}`);

/** The row shown for the link story: its title, and the feed its copy is in. */
async function linkStoryRow(page: Page): Promise<{ title: string; other: string }> {
	const row = rowsOf(page, LINK_STORY);
	await expect(row).toHaveCount(1);
	const title = (await row.locator('.title').textContent()) ?? '';
	return title === LINK_A ? { title, other: COAST } : { title, other: HARBOUR };
}

test.describe('desktop', () => {
	test('each story once with “Also in”; opening one marks its copy read on the server', async ({
		page,
		context
	}) => {
		await signIn(page);
		await openCategory(page);

		const { title, other } = await linkStoryRow(page);
		const row = rowsOf(page, LINK_STORY);
		await expect(row.locator('.also-in')).toHaveText(`Also in: ${other}`);
		// Part of the row link's accessible name. Within the row: the title story's row may name the
		// same feed (which of its copies is shown follows tt-rss's order of equal dates), so a
		// list-wide count found two in a loaded pass of 2026-11-28.
		await expect(row.getByRole('link', { name: new RegExp(`Also in: ${other}`) })).toHaveCount(1);
		// The title story too, once; the articles of one feed each are left alone.
		await expect(rowsOf(page, new RegExp(TITLE_STORY))).toHaveCount(1);
		await expect(rowsOf(page, new RegExp(TITLE_STORY)).locator('.also-in')).toHaveText(
			/^Also in: Testbed (Harbour Times|Coast Daily)$/
		);
		for (const only of [ONLY_A, ONLY_B]) {
			await expect(rowsOf(page, new RegExp(only))).toHaveCount(1);
			await expect(rowsOf(page, new RegExp(only)).locator('.also-in')).toHaveCount(0);
		}
		expect(await serverUnreadOf([LINK_A, LINK_B])).toEqual([true, true]);

		// Offline, the cached list is grouped the same way.
		await context.setOffline(true);
		await feeds(page)
			.getByRole('link', { name: new RegExp(`^${HARBOUR}`) })
			.click();
		await expect(rowsOf(page, new RegExp(ONLY_A))).toHaveCount(1);
		await feeds(page).getByRole('link', { name: CATEGORY }).click();
		await expect(rowsOf(page, LINK_STORY)).toHaveCount(1);
		await expect(rowsOf(page, LINK_STORY).locator('.also-in')).toHaveText(`Also in: ${other}`);
		await context.setOffline(false);

		await headlineList(page).getByRole('link', { name: title }).click();
		await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
		// The reader sees what the read takes along.
		await expect(page.locator('article .also-read')).toHaveText(`Also marks read: ${other}`);
		await expect
			.poll(() => serverUnreadOf([LINK_A, LINK_B]), { timeout: 20_000 })
			.toEqual([false, false]);
		// The title story and the others were not touched.
		expect(await serverUnreadOf([TITLE_STORY, ONLY_A, ONLY_B])).toEqual([true, true, true]);
	});

	test('two feeds’ "Daily digest" stay two rows; reading one leaves the other unread', async ({
		page
	}) => {
		await signIn(page);
		await openCategory(page);
		const digests = rowsOf(page, new RegExp(DIGEST));
		await expect(digests).toHaveCount(2);
		await expect(digests.locator('.also-in')).toHaveCount(0);
		await digests.first().locator('a.link').click();
		await expect(page.getByRole('heading', { level: 1, name: DIGEST })).toBeVisible();
		await expect(page.locator('article .also-read')).toHaveCount(0);
		const client = await serverClient();
		const unread = async (): Promise<boolean[]> =>
			(await serverHeadlines(client, DIGEST)).map((h) => h.unread).sort();
		// One read (the one opened), one still unread: the other feed's digest was never seen.
		await expect.poll(unread, { timeout: 20_000 }).toEqual([false, true]);
	});

	test('the selection’s Mark read marks the copies; the setting shows every row again', async ({
		page
	}) => {
		await signIn(page);
		await openCategory(page);
		const titleRow = rowsOf(page, new RegExp(TITLE_STORY));
		await expect(titleRow).toHaveCount(1);
		await titleRow.locator('a.link').click({ modifiers: ['Control'] });
		const bar = page.getByRole('group', { name: 'Selected articles' });
		await expect(bar.getByRole('status')).toHaveText('1 selected');
		await bar.getByRole('button', { name: 'Mark read' }).click();
		// Both copies (one title, two feeds) are read on the server once the Undo time is over.
		const client = await serverClient();
		const both = async (): Promise<boolean[]> =>
			(await serverHeadlines(client, TITLE_STORY)).map((h) => h.unread);
		await expect.poll(both, { timeout: 30_000 }).toEqual([false, false]);

		// Settings → Reading: off, and every row is back.
		await page.goto('/settings');
		const setting = page.getByRole('checkbox', {
			name: /Show the same story from several feeds once/
		});
		await expect(setting).toBeChecked();
		await setting.uncheck();
		// Both stories are read by now (the first test opened the link story): lists show every
		// article, or the server's answer (adaptive: unread only) would take their rows away.
		await page
			.getByRole('group', { name: 'Lists' })
			.getByRole('combobox')
			.first()
			.selectOption('all_articles');
		await page.goBack();
		// Both rows of each story (the count waits for the list; the way back may briefly show two).
		await expect(rowsOf(page, LINK_STORY)).toHaveCount(2);
		await expect(rowsOf(page, new RegExp(TITLE_STORY))).toHaveCount(2);
		await expect(headlineList(page).locator('.also-in')).toHaveCount(0);
	});
});

test.describe('phone', () => {
	test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

	test('the row says “Also in” within its height; marking it read marks both', async ({ page }) => {
		await signIn(page);
		await openCategory(page);
		const { title, other } = await linkStoryRow(page);
		const row = rowsOf(page, LINK_STORY);
		const also = row.locator('.also-in');
		await expect(also).toHaveText(`Also in: ${other}`);
		const rowBox = await row.boundingBox();
		const alsoBox = await also.boundingBox();
		expect(alsoBox && rowBox && alsoBox.y + alsoBox.height <= rowBox.y + rowBox.height).toBe(true);

		await headlineList(page).getByRole('link', { name: title }).click();
		await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
		await expect
			.poll(() => serverUnreadOf([LINK_A, LINK_B]), { timeout: 20_000 })
			.toEqual([false, false]);
	});
});
