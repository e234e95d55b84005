/**
 * Two accounts on one device, against the real server: the first account's offline changes are
 * never sent with the second account's session, the first account's cache is never shown to the
 * second, and the first account's kept changes go out when it signs in again.
 */
import type { BrowserContext } from '@playwright/test';
import { type Headline } from '../../src/lib/api';
import { TtrssClient } from '../../src/lib/api/client';
import { expect, test } from './support/fixtures';
import { resetTestbed, testbed } from '../support/testbed';
import {
	BIG_FEED,
	BIG_FEED_ID,
	cutNetwork,
	openFeed,
	outboxCount,
	readStore,
	restoreNetwork,
	signIn,
	starButtons,
	starTitle,
	starredTitles
} from './offline-support';

test.beforeEach(() => {
	resetTestbed();
});

const SHARE_URL = `http://${testbed.feedsHost}/articles/shared-by-the-first-account`;
const SHARE_TITLE = 'Shared offline by the first account';

async function clientFor(user: string, password: string): Promise<TtrssClient> {
	const client = new TtrssClient({ apiUrl: testbed.apiUrl });
	await client.login({ user, password });
	return client;
}

/** Every API request that reached the server from now on: its op and the session it carried. */
function recordSessions(context: BrowserContext): { op: string; sid: string }[] {
	const calls: { op: string; sid: string }[] = [];
	context.on('requestfinished', (request) => {
		if (!request.url().includes('/tt-rss/api/')) return;
		const body = JSON.parse(request.postData() ?? '{}') as Record<string, unknown>;
		calls.push({ op: String(body.op), sid: typeof body.sid === 'string' ? body.sid : '' });
	});
	return calls;
}

async function published(client: TtrssClient): Promise<Headline[]> {
	return (await client.getHeadlines({ feedId: -2, viewMode: 'all_articles' })).headlines;
}

test("another account signing in never sends the first account's changes nor sees its cache", async ({
	context,
	page
}) => {
	let second = await clientFor(testbed.secondUser, testbed.secondPassword);
	const secondBefore = (await second.getHeadlines({ feedId: -4, viewMode: 'all_articles' }))
		.headlines;
	expect(secondBefore.length).toBeGreaterThan(0);

	// The first account, without "stay signed in", makes two changes offline.
	await signIn(page, false);
	await openFeed(page);
	await cutNetwork(context);
	const starred = await starTitle(page, 5);
	expect((await starredTitles(BIG_FEED_ID)).has(starred)).toBe(false);
	await starButtons(page).nth(5).click();
	await page.goto(
		`/share?${new URLSearchParams({ title: SHARE_TITLE, url: SHARE_URL }).toString()}`
	);
	await page.getByRole('button', { name: 'Share to Published' }).click();
	await expect.poll(() => outboxCount(page)).toBe(2);

	// Every server session ends; back online the app finds it out and offers sign-in in place.
	resetTestbed();
	await restoreNetwork(context);
	await page.goto('/');
	const signInAgain = page.getByTestId('sign-in-again');
	await expect(signInAgain).toBeVisible({ timeout: 20_000 });
	await expect(signInAgain.getByLabel(/^Password for reader/)).toBeVisible();
	expect(await outboxCount(page)).toBe(2);

	// Someone else signs in on this device instead.
	const calls = recordSessions(context);
	await signInAgain.getByRole('link', { name: 'Another account' }).click();
	await expect(page.getByLabel('User name', { exact: true })).toHaveValue(testbed.user);
	await page.getByLabel('User name', { exact: true }).fill(testbed.secondUser);
	await page.getByLabel('Password', { exact: true }).fill(testbed.secondPassword);
	await page.getByRole('button', { name: 'Sign in' }).click();

	// Asked what to do with the first account's changes, listed; kept for that account.
	const dialog = page.getByRole('dialog', { name: 'Unsent changes of another account' });
	await expect(dialog).toBeVisible();
	// The app reaches tt-rss through its own origin's /tt-rss/ proxy.
	await expect(dialog).toContainText(
		new RegExp(`${testbed.user} on http://localhost:\\d+/tt-rss/api/`)
	);
	await expect(dialog.getByTestId('other-account-changes').locator('li')).toHaveCount(2);
	await expect(dialog).toContainText(SHARE_TITLE);
	await dialog.getByRole('button', { name: 'Keep them for that account' }).click();

	// The second account's own feed only: nothing of the first account's cache is shown or kept.
	const feeds = page.locator('nav[aria-label="Feeds"]');
	await expect(feeds.getByRole('link', { name: 'Testbed Podcast' })).toBeVisible();
	await expect(feeds.getByRole('link', { name: BIG_FEED })).toHaveCount(0);
	// Nor are its changes counted or listed to this reader.
	await expect(page.getByTestId('pending-count')).toHaveCount(0);
	const cachedTitles = (await readStore<{ title: string }[]>(page, 'articles')).map((a) => a.title);
	expect(cachedTitles).not.toContain(starred);

	// A replay ran with the second account's session (its status is fresh) and sent nothing.
	await expect
		.poll(
			async () =>
				(await readStore<{ lastAttemptAt?: number } | undefined>(page, 'settings', 'outbox.status'))
					?.lastAttemptAt,
			{ timeout: 20_000 }
		)
		.toBeGreaterThan(0);
	expect(await outboxCount(page)).toBe(2);
	const secondSid = (await readStore<{ sessionId: string }>(page, 'session', 'current')).sessionId;
	expect(secondSid).not.toBe('');
	// The recorder sees the second account's own calls (its feed tree came with them).
	await expect.poll(() => calls.some((c) => c.sid === secondSid)).toBe(true);
	expect(
		calls.filter(
			(c) => c.sid === secondSid && (c.op === 'updateArticle' || c.op === 'shareToPublished')
		)
	).toEqual([]);

	// On the server: the second account untouched, the first account unchanged so far (the reset
	// above ended every session, this test's own too).
	second = await clientFor(testbed.secondUser, testbed.secondPassword);
	const secondAfter = (await second.getHeadlines({ feedId: -4, viewMode: 'all_articles' }))
		.headlines;
	expect(secondAfter.map((h) => [h.id, h.unread, h.marked])).toEqual(
		secondBefore.map((h) => [h.id, h.unread, h.marked])
	);
	expect(await published(second)).toEqual([]);
	const first = await clientFor(testbed.user, testbed.password);
	expect((await published(first)).map((h) => h.link)).not.toContain(SHARE_URL);
	expect((await starredTitles(BIG_FEED_ID)).has(starred)).toBe(false);

	// The second account signs out (it has nothing unsent: no question); the first signs in again
	// and its kept changes go out, with its own session.
	await page.getByRole('button', { name: 'Sign out' }).click();
	await expect(page).toHaveURL(/\/login$/);
	await page.getByLabel('User name', { exact: true }).fill(testbed.user);
	await page.getByLabel('Password', { exact: true }).fill(testbed.password);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await expect(feeds.getByRole('link', { name: BIG_FEED })).toBeVisible();
	await expect.poll(() => outboxCount(page), { timeout: 20_000 }).toBe(0);
	expect((await starredTitles(BIG_FEED_ID)).has(starred)).toBe(true);
	await expect.poll(async () => (await published(first)).map((h) => h.link)).toContain(SHARE_URL);
	expect(await published(second)).toEqual([]);
});

test('a session that ended is renewed in place: same server and user, the cache and changes kept', async ({
	context,
	page
}) => {
	await signIn(page, false);
	await openFeed(page);
	await cutNetwork(context);
	const starred = await starTitle(page, 4);
	await starButtons(page).nth(4).click();
	await expect.poll(() => outboxCount(page)).toBe(1);

	resetTestbed(); // every session dies
	await restoreNetwork(context);
	await page.reload();
	const signInAgain = page.getByTestId('sign-in-again');
	await expect(signInAgain).toBeVisible({ timeout: 20_000 });
	// The list is still there, from the cache, while the app asks.
	await expect(starButtons(page).first()).toBeVisible();
	await signInAgain.getByLabel(/^Password for reader/).fill(testbed.password);
	await signInAgain.getByRole('button', { name: 'Sign in' }).click();
	await expect(signInAgain).toBeHidden();
	await expect(page).not.toHaveURL(/\/login$/);
	await expect.poll(() => outboxCount(page), { timeout: 20_000 }).toBe(0);
	expect((await starredTitles(BIG_FEED_ID)).has(starred)).toBe(true);
});
