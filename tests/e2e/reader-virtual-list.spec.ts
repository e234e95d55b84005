import { expect, test } from './support/fixtures';
import { resetTestbed } from '../support/testbed';
import { feeds, headlineList, signIn } from './reader-support';

const TOTAL = 10_000;

/** Synthetic headlines in the server's wire shape (client-side data: this tests the list). */
function page(skip: number, limit: number): unknown[] {
	const rows = [];
	for (let i = skip; i < Math.min(TOTAL, skip + limit); i++) {
		rows.push({
			id: 1_000_000 + TOTAL - i,
			guid: `synthetic-${i}`,
			unread: i % 3 === 0,
			marked: i % 7 === 0,
			published: false,
			updated: 1_790_000_000 - i * 60,
			is_updated: false,
			title: `Synthetic headline ${i + 1}`,
			link: `http://feeds.test/synthetic/${i}`,
			feed_id: 6,
			tags: [''],
			excerpt: `Row ${i + 1} of ${TOTAL}.`,
			labels: [],
			feed_title: 'Testbed Big Feed (320 items)',
			comments_count: 0,
			comments_link: '',
			always_display_attachments: false,
			author: '',
			score: 0,
			note: null,
			lang: 'en',
			content: '',
			flavor_image: '',
			flavor_stream: ''
		});
	}
	return rows;
}

test.beforeAll(() => {
	resetTestbed();
});

test('10 000 headlines scroll with at most 150 rows in the DOM', async ({ page: browser }) => {
	test.setTimeout(120_000);
	await browser.route('**/tt-rss/api/**', async (route) => {
		const body = route.request().postDataJSON() as Record<string, unknown> | null;
		if (body?.op !== 'getHeadlines' || String(body.feed_id) !== '6') return route.continue();
		const skip = Number(body.skip ?? 0);
		const limit = Number(body.limit ?? 200);
		const header = { id: 6, first_id: 1_000_000 + TOTAL, is_cat: false };
		await route.fulfill({
			contentType: 'text/json',
			body: JSON.stringify({ seq: body.seq ?? 0, status: 0, content: [header, page(skip, limit)] })
		});
	});
	await signIn(browser);
	await feeds(browser)
		.getByRole('link', { name: /^Testbed Big Feed/ })
		.click();
	const list = headlineList(browser);
	await expect(list.getByRole('link', { name: /Synthetic headline 1\b/ })).toBeVisible();

	const rows = list.getByRole('listitem');
	const viewport = list.locator('xpath=..');
	let loaded = 0;
	while (loaded < TOTAL) {
		await viewport.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
		await expect
			.poll(async () => Number(await list.getAttribute('data-count')))
			.toBeGreaterThan(loaded);
		loaded = Number(await list.getAttribute('data-count'));
		expect(await rows.count()).toBeLessThanOrEqual(150);
	}
	expect(loaded).toBe(TOTAL);
	await viewport.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
	await expect(list.getByRole('link', { name: /Synthetic headline 10000\b/ })).toBeVisible();
	expect(await rows.count()).toBeLessThanOrEqual(150);
	// The server has nothing more: the list says so at its end.
	await expect(browser.getByText('That’s all.')).toBeAttached();
	// Middle of the list, then the top: still a window of rows, the right ones.
	await viewport.evaluate((el) => el.scrollTo({ top: el.scrollHeight / 2 }));
	await expect(list.getByRole('link', { name: /Synthetic headline 5000\b/ })).toBeAttached();
	expect(await rows.count()).toBeLessThanOrEqual(150);
	await viewport.evaluate((el) => el.scrollTo({ top: 0 }));
	await expect(list.getByRole('link', { name: /Synthetic headline 1\b/ })).toBeVisible();
	expect(await rows.count()).toBeLessThanOrEqual(150);
});
