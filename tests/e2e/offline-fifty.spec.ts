import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import {
	BIG_FEED,
	cutNetwork,
	openFeed,
	outboxCount,
	restoreNetwork,
	serverHeadlines,
	signIn,
	starTitle
} from './offline-support';

test.beforeAll(() => {
	resetTestbed();
});

interface Flags {
	unread: boolean;
	marked: boolean;
	published: boolean;
}

/** Every article of the big feed by title, as the server has it now. */
async function serverFlags(): Promise<Map<string, Flags>> {
	return new Map(
		(await serverHeadlines()).map(
			(h) => [h.title, { unread: h.unread, marked: h.marked, published: h.published }] as const
		)
	);
}

test('fifty-seven changes across twenty articles offline, a reload and a closed tab: the server ends exactly as intended', async ({
	context,
	page
}) => {
	await signIn(page);
	await openFeed(page);
	const expected = await serverFlags();
	const first = await starTitle(page, 0);

	await cutNetwork(context);
	await page.getByRole('heading', { level: 1, name: BIG_FEED }).click();
	const titles: string[] = [];
	let changes = 0;
	for (let i = 0; i < 20; i++) {
		// j opens the next article (marking it read) and focuses its heading.
		await page.keyboard.press('j');
		const heading = page.getByRole('heading', { level: 1 }).and(page.locator(':focus'));
		if (i === 0) await expect(heading).toHaveText(first);
		else await expect(heading).not.toHaveText(titles[i - 1] as string);
		const title = (await heading.textContent())?.trim() ?? '';
		titles.push(title);
		const flags = expected.get(title);
		if (!flags) throw new Error(`${title} is not on the server`);
		flags.unread = false;
		await page.keyboard.press('s');
		flags.marked = !flags.marked;
		changes += 2;
		if (i % 2 === 0) {
			await page.keyboard.press('Shift+P');
			flags.published = !flags.published;
			changes++;
		}
		if (i % 3 === 0) {
			await page.keyboard.press('u');
			flags.unread = true;
			changes++;
		}
	}
	expect(changes).toBe(57);
	// Coalesced per article and field: at most 20 read + 20 star + 10 publish items.
	const queued = await outboxCount(page);
	expect(queued).toBeGreaterThan(0);
	expect(queued).toBeLessThanOrEqual(50);

	await page.reload();
	await expect.poll(() => outboxCount(page)).toBe(queued);
	await page.close();

	await restoreNetwork(context);
	const again = await context.newPage();
	await again.goto('/');
	await expect.poll(() => outboxCount(again), { timeout: 20_000 }).toBe(0);
	expect(new Set(titles).size).toBe(20);
	// Every article of the feed, the twenty changed ones and all the others, as intended.
	expect(await serverFlags()).toEqual(expected);
});
