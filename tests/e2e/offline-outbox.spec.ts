import type { Page } from '@playwright/test';
import { apiBody, expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import {
	BIG_FEED_ID,
	cutNetwork,
	holdStore,
	openFeed,
	outboxCount,
	readStore,
	recordApiCalls,
	restoreNetwork,
	serverHeadlines,
	signIn,
	starButtons,
	starTitle,
	starredTitles
} from './offline-support';

test.beforeEach(() => {
	resetTestbed();
});

interface ReplayStatus {
	signInNeeded: boolean;
	lastError?: string;
}

test('many changes offline survive a reload and a closed tab, and reach the server once online', async ({
	context,
	page
}) => {
	await signIn(page);
	await openFeed(page);
	const before = await starredTitles();
	await cutNetwork(context);

	// Star rows 1–12 (row 0 is seeded starred: unstar it), toggle row 1 twice (last wins: unstarred).
	const expected = new Set(before);
	for (let i = 0; i < 12; i++) {
		const title = await starTitle(page, i);
		await starButtons(page).nth(i).click();
		if (expected.has(title)) expected.delete(title);
		else expected.add(title);
	}
	const twice = await starTitle(page, 1);
	await starButtons(page).nth(1).click();
	expected.delete(twice);
	await expect.poll(() => outboxCount(page)).toBe(12);

	// Reload offline: the shell comes from the worker, the queue from IndexedDB.
	await page.reload();
	await expect.poll(() => outboxCount(page)).toBe(12);
	const cached = await readStore<{ id: number; title: string; marked: boolean }[]>(
		page,
		'articles'
	);
	const third = await starTitle(page, 3).catch(() => undefined);
	if (third) expect(cached.find((a) => a.title === third)?.marked).toBe(expected.has(third));
	await page.close();

	await restoreNetwork(context);
	const again = await context.newPage();
	await again.goto('/');
	await expect.poll(() => outboxCount(again), { timeout: 20_000 }).toBe(0);
	expect(await starredTitles()).toEqual(expected);
});

test('a change shown, then a reload before its outbox write committed: the next start queues it once', async ({
	context,
	page
}) => {
	await signIn(page);
	await openFeed(page);
	const before = await starredTitles();
	// The app's outbox write waits behind another write (a sync's page write, in the chaos run that
	// found this): here a transaction over the outbox that another tab keeps open until it closes.
	const blocker = await holdStore(context, 'outbox');
	// The row shows the change; its outbox write waits (reading the outbox would wait too).
	const { title, starred } = await starWaiting(page, 2, before);

	// The page goes with its write still waiting (IndexedDB aborts it); then the other tab closes.
	await page.reload();
	await blocker.close();
	// The next start finds the change written ahead, queues it, and the replay sends it, once.
	await expectSentAndSettled(page, title, starred);
	await expect(page.getByRole('button', { name: `Star “${title}”` })).toHaveAttribute(
		'aria-pressed',
		String(starred)
	);
});

test('a second tab closed before its outbox write committed: the tab still open queues it, without a start', async ({
	context,
	page
}) => {
	await signIn(page);
	await openFeed(page);
	const before = await starredTitles();
	// A second tab of the app on the same list, opened after the first one started.
	const second = await context.newPage();
	await second.goto(page.url());
	await expect(starButtons(second).first()).toBeVisible();
	// Its outbox write waits behind a transaction another tab keeps open (as in the test above).
	const blocker = await holdStore(context, 'outbox');
	const { title, starred } = await starWaiting(second, 3, before);

	// The second tab goes with its write still waiting; then the blocker. The first tab, open all
	// along and never reloaded, queues the change and sends it (chaos seed 5000013: it stayed in
	// local storage until some later start).
	await second.close();
	await blocker.close();
	await expectSentAndSettled(page, title, starred);
});

/** Stars the `index`-th row of `tab` (or unstars it) and waits until the row shows it. */
async function starWaiting(
	tab: Page,
	index: number,
	before: ReadonlySet<string>
): Promise<{ title: string; starred: boolean }> {
	const title = await starTitle(tab, index);
	const starred = !before.has(title);
	const row = tab.getByRole('button', { name: `Star “${title}”` });
	await row.click();
	await expect(row).toHaveAttribute('aria-pressed', String(starred));
	return { title, starred };
}

/**
 * The server has the star; nothing is left queued or written ahead (the worker may have sent it:
 * its requests are not all seen here, so "once" is the unit tests' write-ahead.spec.ts).
 */
async function expectSentAndSettled(page: Page, title: string, starred: boolean): Promise<void> {
	await expect
		.poll(async () => (await starredTitles()).has(title), { timeout: 20_000 })
		.toBe(starred);
	await expect.poll(() => outboxCount(page)).toBe(0);
	expect(await page.evaluate(() => localStorage.getItem('reader.journal'))).toBeNull();
}

// Two tests, not two rounds of one: each round signs in, syncs, reloads and signs in again, and on
// a loaded machine the two rounds together outran one test's 60 s (round two was at its last
// sign-in when the time ran out, on its run and its retry, in a loaded pass of issue 22's ten).
for (const stay of [true, false]) {
	test(`an expired session ${stay ? 'is renewed with "stay signed in"' : 'without "stay signed in": the queue waits for sign-in'}`, async ({
		browser
	}) => {
		const context = await browser.newContext();
		const page = await context.newPage();
		await signIn(page, stay);
		await openFeed(page);
		await cutNetwork(context);
		const title = await starTitle(page, 5);
		await starButtons(page).nth(5).click();
		await expect.poll(() => outboxCount(page)).toBe(1);
		resetTestbed(); // every session dies
		await restoreNetwork(context);
		await page.reload();
		if (stay) {
			await expect.poll(() => outboxCount(page), { timeout: 20_000 }).toBe(0);
			expect((await starredTitles()).has(title)).toBe(true);
		} else {
			await expect
				.poll(
					async () =>
						(await readStore<ReplayStatus | undefined>(page, 'settings', 'outbox.status'))
							?.signInNeeded,
					{ timeout: 20_000 }
				)
				.toBe(true);
			expect(await outboxCount(page)).toBe(1);
			expect((await starredTitles()).has(title)).toBe(false);
			// Signing in again sends the kept change.
			await signIn(page, false);
			await page.reload();
			await expect.poll(() => outboxCount(page), { timeout: 20_000 }).toBe(0);
			expect((await starredTitles()).has(title)).toBe(true);
		}
		await context.close();
	});
}

test('a catch-up offline marks cached articles read at once; a server lost mid-replay keeps the rest', async ({
	context,
	page
}) => {
	await signIn(page);
	await openFeed(page);
	await cutNetwork(context);
	const early = [await starTitle(page, 2), await starTitle(page, 3)];
	await starButtons(page).nth(2).click();
	await starButtons(page).nth(3).click();
	await page.locator('summary', { hasText: 'Mark read' }).click();
	await page.getByRole('group', { name: 'Mark as read' }).getByRole('button').first().click();
	await expect.poll(() => outboxCount(page)).toBe(3);
	const late = await starTitle(page, 4);
	await starButtons(page).nth(4).click();
	await expect.poll(() => outboxCount(page)).toBe(4);
	// The cached articles of that feed are read at once.
	const cached = await readStore<{ feedId: number; unread: boolean }[]>(page, 'articles');
	expect(cached.filter((a) => a.feedId === BIG_FEED_ID && a.unread)).toEqual([]);

	// The server takes the replay's first write, then disappears. The write is passed on from here,
	// not by the browser: one the replay sends just before the browser is back online (its retry
	// timer) still reaches the server, and is the one answered (a `continue` of it failed offline
	// and left nothing for the replay to land: seen once in 160).
	await context.unroute('**/tt-rss/api/**');
	let answered = 0;
	await context.route('**/tt-rss/api/**', async (route) => {
		const op = apiBody(route.request().postData())?.op;
		const write = op === 'updateArticle' || op === 'catchupFeed';
		if (write && answered++ < 1) await route.fulfill({ response: await route.fetch() });
		else await route.abort('connectionrefused');
	});
	await context.setOffline(false);
	await expect.poll(() => outboxCount(page), { timeout: 20_000 }).toBeLessThan(4);
	const left = await outboxCount(page);
	expect(left).toBeGreaterThan(0);

	await context.unroute('**/tt-rss/api/**');
	await page.reload();
	await expect.poll(() => outboxCount(page), { timeout: 20_000 }).toBe(0);
	const server = await serverHeadlines();
	const starred = new Set(server.filter((h) => h.marked).map((h) => h.title));
	for (const title of [...early, late]) expect(starred.has(title)).toBe(true);
	expect(server.filter((h) => h.unread)).toEqual([]);
});

test('two tabs replay once between them', async ({ context, page }) => {
	await signIn(page);
	await openFeed(page);
	const second = await context.newPage();
	await second.goto(page.url());
	await expect(starButtons(second).first()).toBeVisible();
	await cutNetwork(context);
	const titles: string[] = [];
	for (let i = 6; i < 10; i++) {
		titles.push(await starTitle(page, i));
		await starButtons(page).nth(i).click();
	}
	for (let i = 10; i < 14; i++) {
		titles.push(await starTitle(second, i));
		await starButtons(second).nth(i).click();
	}
	await expect.poll(() => outboxCount(page)).toBe(8);
	const calls = recordApiCalls(context);
	await restoreNetwork(context); // both tabs get `online` and replay
	await expect.poll(() => outboxCount(page), { timeout: 20_000 }).toBe(0);
	const starred = await starredTitles();
	for (const title of titles) expect(starred.has(title)).toBe(true);
	const sentIds = calls.filter((c) => c.op === 'updateArticle').flatMap((c) => c.ids.split(','));
	expect(sentIds.length).toBe(new Set(sentIds).size); // no article was sent twice
});

test('the service worker replays with no page open (Background Sync)', async ({
	context,
	page,
	baseURL
}) => {
	await signIn(page);
	await openFeed(page);
	await cutNetwork(context);
	const title = await starTitle(page, 7);
	await starButtons(page).nth(7).click();
	await expect.poll(() => outboxCount(page)).toBe(1);
	const blank = await context.newPage();
	await page.close();
	await restoreNetwork(context);

	// No page of the app is open: fire the worker's `sync` event as the browser would.
	const cdp = await context.newCDPSession(blank);
	const registration = new Promise<string>((resolve) => {
		cdp.on(
			'ServiceWorker.workerRegistrationUpdated',
			(event: { registrations: { registrationId: string; scopeURL: string }[] }) => {
				const found = event.registrations.find((r) => r.scopeURL.startsWith(baseURL ?? ''));
				if (found) resolve(found.registrationId);
			}
		);
	});
	await cdp.send('ServiceWorker.enable');
	await cdp.send('ServiceWorker.dispatchSyncEvent', {
		origin: new URL(baseURL ?? '').origin,
		registrationId: await registration,
		tag: 'outbox',
		lastChance: false
	});
	await expect.poll(async () => (await starredTitles()).has(title), { timeout: 20_000 }).toBe(true);
});

test('a full storage quota: old cache entries are evicted and the change still reaches the server', async ({
	context,
	page
}) => {
	await context.addInitScript(() => {
		// eslint-disable-next-line @typescript-eslint/unbound-method -- called with apply below
		const put = IDBObjectStore.prototype.put;
		IDBObjectStore.prototype.put = function (
			this: IDBObjectStore,
			...args: Parameters<typeof put>
		) {
			const full = (globalThis as { __quotaFull?: boolean }).__quotaFull;
			if (full && ['articles', 'lists', 'tree'].includes(this.name)) {
				throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
			}
			return put.apply(this, args);
		};
	});
	await signIn(page);
	await openFeed(page);
	const cachedBefore = (await readStore<unknown[]>(page, 'articles')).length;
	expect(cachedBefore).toBeGreaterThan(0);
	await page.evaluate(() => ((globalThis as { __quotaFull?: boolean }).__quotaFull = true));
	const title = await starTitle(page, 8);
	await starButtons(page).nth(8).click();
	await expect.poll(async () => (await starredTitles()).has(title), { timeout: 20_000 }).toBe(true);
	expect(await outboxCount(page)).toBe(0);
	expect((await readStore<unknown[]>(page, 'articles')).length).toBeLessThan(cachedBefore);
});
