// A big account's feed tree (1,000 feeds in 50 categories) is built a few screenfuls at a time:
// its first paint holds a screenful, not the whole tree, and every feed is there a moment later,
// in the same nested markup. The test bed's own getFeedTree reply is extended with copies of its
// own category and feed items (client-side data: this tests the tree, as reader-virtual-list does
// the list).
import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import { feeds, signIn } from './reader-support';

const CATEGORIES = 50;
const PER_CATEGORY = 20;
const FIRST_CAT = 9001;
const FIRST_FEED = 10_001;

type Item = Record<string, unknown> & { type?: string; bare_id?: number; items?: Item[] };

function find(items: Item[], ok: (item: Item) => boolean): Item | undefined {
	for (const item of items) {
		if (ok(item)) return item;
		const inner = find(item.items ?? [], ok);
		if (inner) return inner;
	}
	return undefined;
}

test.beforeAll(() => {
	resetTestbed();
});

test('1,000 feeds: the first paint holds a screenful, then every feed is built', async ({
	page
}) => {
	test.setTimeout(90_000);
	await page.route('**/tt-rss/api/**', async (route) => {
		const body = route.request().postDataJSON() as Record<string, unknown> | null;
		if (body?.op !== 'getFeedTree') return route.continue();
		const response = await route.fetch();
		const reply = (await response.json()) as { content: { categories: { items: Item[] } } };
		const items = reply.content.categories.items;
		const category = find(items, (i) => i.type === 'category' && Number(i.bare_id) > 0);
		const feed = find(items, (i) => i.type === 'feed' && Number(i.bare_id) > 0);
		if (!category || !feed) throw new Error('the test bed has no category or feed');
		for (let c = 0; c < CATEGORIES; c++) {
			const catId = FIRST_CAT + c;
			const feedItems = Array.from({ length: PER_CATEGORY }, (_, f) => {
				const id = FIRST_FEED + c * PER_CATEGORY + f;
				return { ...feed, id: `FEED:${id}`, bare_id: id, name: `Big feed ${id}`, unread: 0 };
			});
			items.push({
				...category,
				id: `CAT:${catId}`,
				bare_id: catId,
				name: `Big topic ${catId}`,
				items: feedItems
			});
		}
		await route.fulfill({ response, json: reply });
	});
	// How many tree links exist in the frame the first big category appears (before the app's
	// scripts, so nothing of the test runs in between).
	await page.addInitScript((selector) => {
		const observer = new MutationObserver(() => {
			if (!document.querySelector(selector)) return;
			observer.disconnect();
			(window as unknown as { firstTreeLinks: number }).firstTreeLinks = document.querySelectorAll(
				'nav[aria-label="Feeds"] a'
			).length;
		});
		observer.observe(document, { childList: true, subtree: true });
	}, `nav[aria-label="Feeds"] a[href$="/cat/${FIRST_CAT}"]`);

	await signIn(page);
	const tree = feeds(page);
	const last = FIRST_FEED + CATEGORIES * PER_CATEGORY - 1;
	await expect(tree.locator(`a[href$="/feed/${last}"]`)).toBeAttached();
	const first = await page.evaluate(
		() => (window as unknown as { firstTreeLinks?: number }).firstTreeLinks
	);
	expect(first).toBeGreaterThan(0);
	expect(first).toBeLessThan(400);
	// Then all of them, each in its category's own list.
	expect(await tree.locator(`a[href$="/cat/${FIRST_CAT + CATEGORIES - 1}"]`).count()).toBe(1);
	await expect(
		tree.locator(`li.category:has(> a[href$="/cat/${FIRST_CAT + 7}"]) details a`)
	).toHaveCount(PER_CATEGORY);
	const links = await tree
		.locator('a[href*="/feed/"]')
		.evaluateAll((as) =>
			as.map((a) => Number(a.getAttribute('href')?.split('/').pop())).filter((id) => id >= 10_001)
		);
	expect(links).toHaveLength(CATEGORIES * PER_CATEGORY);
	// And a built feed works like any other: opened, it is the one current row.
	const lastLink = tree.getByRole('link', { name: `Big feed ${last}` });
	await lastLink.scrollIntoViewIfNeeded();
	await lastLink.click();
	await expect(page).toHaveURL(new RegExp(`/feed/${last}$`));
	await expect(lastLink).toHaveAttribute('aria-current', 'page');
	await expect(tree.locator('[aria-current="page"]')).toHaveCount(1);
	await tree.getByRole('link', { name: /^All articles/ }).click();
	await expect(page).toHaveURL(/\/feed\/-4$/);
	await expect(lastLink).not.toHaveAttribute('aria-current', 'page');
	await expect(tree.locator('[aria-current="page"]')).toHaveCount(1);
	await expect(tree.getByRole('link', { name: /^All articles/ })).toHaveAttribute(
		'aria-current',
		'page'
	);
});
