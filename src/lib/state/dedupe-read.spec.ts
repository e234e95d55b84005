// Reading one feed’s article never marks another feed’s read because their titles are alike:
// "same story shown once" hides a row only when it is the same article (dedupe/dedupe.ts), and a
// read change takes along only such copies (state/shown-rows.svelte.ts withCopies). Found in the
// review of cd7e7e8: two feeds’ "Daily digest" posts were one row, and reading it sent both.
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

describe.each(recordedLevels)('recorded %s replies', (level) => {
	const { japanese, episode } = recordedRows(level);

	afterEach(() => {
		vi.unstubAllGlobals();
	});

	it('reading one feed’s "Daily digest" does not mark another feed’s digest read', async () => {
		const { server } = await signedInPage(READER, level);
		const storage = new Map<string, string>();
		vi.stubGlobal('localStorage', {
			getItem: (k: string) => storage.get(k) ?? null,
			setItem: (k: string, v: string) => storage.set(k, v),
			removeItem: (k: string) => storage.delete(k)
		});
		const { headlines, listQueryFor } = await import('./headlines.svelte');
		const { treeState } = await import('./tree.svelte');
		const { shownRows } = await import('./shown-rows.svelte');
		const { setFlag } = await import('./actions');
		const { pendingItems } = await import('$lib/outbox/outbox');
		const { undo } = await import('./undo.svelte');
		await Promise.all([
			treeState.load(),
			headlines.open(listQueryFor('feed', '-4', { viewMode: 'adaptive', sortOrder: 'default' })),
			shownRows.load()
		]);
		const a = headlines.find(japanese)!;
		const b = headlines.find(episode)!;
		// Two feeds (3 and 4), two links, one generic title, two hours apart.
		expect(a.feedId).not.toBe(b.feedId);
		expect(a.link).not.toBe(b.link);
		a.title = 'Daily digest';
		b.title = 'Daily digest';
		b.updated = a.updated + 2 * 3600;
		expect(await setFlag([a], 'unread', false)).toBe(true);
		await undo.commit();
		await vi.waitFor(async () => expect(await pendingItems()).toEqual([]));
		// Only the article the reader read is marked read.
		expect(server.sent('updateArticle')).toEqual([
			expect.objectContaining({ article_ids: String(japanese), field: '2', mode: '0' })
		]);
		expect(headlines.find(episode)?.unread).toBe(true);
	});
});
