import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordedLevels } from '$support/fake-fetch';
import { recordedRows, signedInPage, type Replies } from '$support/recorded-server';

const READER: Replies = {
	getHeadlines: 'getHeadlines-header',
	getFeedTree: 'getFeedTree',
	getCounters: 'getCounters',
	getConfig: 'getConfig',
	updateArticle: 'updateArticle'
};

/** Text long enough to compare two rows' content (dedupe/dedupe.ts CONTENT_WORDS). */
const STORY_TEXT =
	'The first autumn leaves turned red in the parks of Tokyo this week, a little later than in most years';

describe.each(recordedLevels)('recorded %s replies', (level) => {
	const { ids, big1, script, big2, japanese, episode } = recordedRows(level);

	/**
	 * All articles with two stories in two rows each: Script tags (feed 5) links to Big feed item
	 * 001's page (feed 6, with tracking parameters), and Episode 1 has the Japanese article's title
	 * and text (another feed, a day on). (The recorded list was read without excerpts.)
	 */
	async function page() {
		const { server } = await signedInPage(READER, level);
		const storage = new Map<string, string>();
		vi.stubGlobal('localStorage', {
			getItem: (k: string) => storage.get(k) ?? null,
			setItem: (k: string, v: string) => storage.set(k, v)
		});
		const { headlines, listQueryFor } = await import('./headlines.svelte');
		const { treeState } = await import('./tree.svelte');
		const { settings } = await import('./settings.svelte');
		const { shownRows } = await import('./shown-rows.svelte');
		const actions = await import('./actions');
		const { pendingItems } = await import('$lib/outbox/outbox');
		const { undo } = await import('./undo.svelte');
		await Promise.all([
			treeState.load(),
			headlines.open(listQueryFor('feed', '-4', { viewMode: 'adaptive', sortOrder: 'default' })),
			shownRows.load()
		]);
		const row = (id: number) => {
			const found = headlines.find(id);
			if (!found) throw new Error(`row ${id} is not loaded`);
			return found;
		};
		// Before anything reads the groups: they are worked out from these.
		row(script).link = `${row(big1).link.replace('://', '://www.')}?utm_source=rss&fbclid=x`;
		row(episode).title = row(japanese).title;
		row(japanese).excerpt = STORY_TEXT;
		row(episode).excerpt = STORY_TEXT;
		row(episode).updated = row(japanese).updated + 24 * 3600;
		// The rows shown first of each story (the list's order decides which).
		const first = (a: number, b: number): [number, number] =>
			ids.indexOf(a) < ids.indexOf(b) ? [a, b] : [b, a];
		const sent = async () => {
			await undo.commit();
			await vi.waitFor(async () => expect(await pendingItems()).toEqual([]));
		};
		return { server, headlines, settings, shownRows, row, first, sent, ...actions };
	}

	afterEach(() => {
		vi.unstubAllGlobals();
	});

	it('shows each story once, in the list’s order, and knows its copies', async () => {
		const { shownRows, first } = await page();
		const [linkHead, linkCopy] = first(big1, script);
		const [titleHead, titleCopy] = first(japanese, episode);
		expect(shownRows.rows.map((h) => h.id)).toEqual(
			ids.filter((id) => id !== linkCopy && id !== titleCopy)
		);
		expect(shownRows.copiesOf(linkHead).map((h) => h.id)).toEqual([linkCopy]);
		expect(shownRows.copiesOf(linkCopy).map((h) => h.id)).toEqual([linkHead]);
		expect(shownRows.copiesOf(titleHead).map((h) => h.id)).toEqual([titleCopy]);
		expect(shownRows.copiesOf(big2)).toEqual([]);
		// A copy opened (by its address) is where its story's row is.
		expect(shownRows.indexOf(linkCopy)).toBe(shownRows.indexOf(linkHead));
	});

	it('marks a story’s copies read with it: one flag change naming every id', async () => {
		const { server, headlines, row, first, sent, setFlag } = await page();
		const [head, copy] = first(big1, script);
		expect(await setFlag([row(head)], 'unread', false)).toBe(true);
		expect(headlines.find(copy)?.unread).toBe(false);
		await sent();
		expect(server.sent('updateArticle')).toEqual([
			expect.objectContaining({ article_ids: `${head},${copy}`, mode: '0', field: '2' })
		]);
	});

	it('regroups only when what grouping reads changes, not when a row is read or starred', async () => {
		const { shownRows, row, first, setFlag, sent } = await page();
		const [head, copy] = first(big1, script);
		const groups = shownRows.groups;
		const grouped = shownRows.regrouped;
		expect(await setFlag([row(big2)], 'unread', false)).toBe(true);
		expect(await setFlag([row(copy)], 'starred', true)).toBe(true);
		const after = shownRows.groups;
		expect(after).not.toBe(groups);
		expect(shownRows.regrouped).toBe(grouped);
		// The same stories, with the rows as they are now.
		expect(after.shown.map((h) => h.id)).toEqual(groups.shown.map((h) => h.id));
		expect(after.shown.find((h) => h.id === big2)?.unread).toBe(false);
		expect(after.copies.get(head)?.[0]).toBe(row(copy));
		expect(row(copy).marked).toBe(true);
		await sent();
	});

	it('a star is the row’s own: its copies keep theirs', async () => {
		const { headlines, row, first, sent, setFlag } = await page();
		const [head, copy] = first(japanese, episode);
		const before = headlines.find(copy)?.marked;
		expect(await setFlag([row(head)], 'starred', !row(head).marked)).toBe(true);
		expect(headlines.find(copy)?.marked).toBe(before);
		await sent();
	});

	it('mark below names the rows shown below with their copies, not the row’s own copy', async () => {
		const { server, shownRows, sent, markBesideRead } = await page();
		const top = shownRows.rows[0]!.id;
		const itself = [top, ...shownRows.copiesOf(top).map((h) => h.id)];
		expect(await markBesideRead(top, 'below')).toBe(true);
		await sent();
		const named = String(server.sent('updateArticle')[0]?.article_ids).split(',').map(Number);
		// Every recorded row is unread: all but the top story's, once each.
		expect(named.sort()).toEqual(ids.filter((id) => !itself.includes(id)).sort());
	});

	it('shows every row, and marks one alone, with the setting off', async () => {
		const { server, settings, shownRows, row, first, sent, setFlag } = await page();
		settings.update({ collapseDuplicates: false });
		expect(shownRows.rows.map((h) => h.id)).toEqual(ids);
		const [head] = first(big1, script);
		expect(await setFlag([row(head)], 'unread', false)).toBe(true);
		await sent();
		expect(server.sent('updateArticle')).toEqual([
			expect.objectContaining({ article_ids: String(head) })
		]);
	});
});
