import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordedLevels } from '$support/fake-fetch';
import { recordedRows, signedInPage, type Replies } from '$support/recorded-server';

/** All articles (five rows), the tree, and the replies to the changes sent. */
const READER: Replies = {
	getHeadlines: 'getHeadlines-header',
	getFeedTree: 'getFeedTree',
	getCounters: 'getCounters',
	getConfig: 'getConfig',
	updateArticle: 'updateArticle',
	catchupFeed: 'catchupFeed'
};

/**
 * How long a replay may take to reach the recorded server: waitFor's own 1 s is short on a busy
 * machine (CI runs the unit tests beside the lint and the contract suites), where a first replay
 * also pays its modules' transform.
 */
const REPLAY_WAIT = { timeout: 10_000 };

describe.each(recordedLevels)('recorded %s replies', (level) => {
	const { ids: listed, big1, script, big2, japanese, episode } = recordedRows(level);

	/** A reader with All articles open (optionally searched) and the tree loaded. */
	async function page(search = '') {
		const { server } = await signedInPage(READER, level);
		const { headlines, listQueryFor } = await import('./headlines.svelte');
		const { treeState } = await import('./tree.svelte');
		const { toasts } = await import('./toasts.svelte');
		const actions = await import('./actions');
		const { pendingItems } = await import('$lib/outbox/outbox');
		const { undo } = await import('./undo.svelte');
		const query = listQueryFor('feed', '-4', { viewMode: 'adaptive', sortOrder: 'default' });
		await Promise.all([treeState.load(), headlines.open({ ...query, search })]);
		const row = (id: number) => {
			const found = headlines.find(id);
			if (!found) throw new Error(`row ${id} is not loaded`);
			return found;
		};
		/**
		 * Every queued change has been sent (a test must not leave its replay to the next one); an
		 * undoable change is committed first, as when its toast goes away.
		 */
		const sent = async () => {
			await undo.commit();
			await vi.waitFor(async () => expect(await pendingItems()).toEqual([]), REPLAY_WAIT);
		};
		return { server, headlines, treeState, toasts, pendingItems, row, sent, undo, ...actions };
	}

	afterEach(() => {
		vi.doUnmock('$lib/outbox/enqueue');
		vi.unstubAllGlobals();
	});

	describe('setFlag', () => {
		it('shows the change at once, queues it, and the replay sends it', async () => {
			const { server, headlines, treeState, row, sent, setFlag } = await page();
			const before = treeState.unread(6);
			expect(await setFlag([row(script)], 'starred', true)).toBe(true);
			expect(headlines.find(script)?.marked).toBe(true);
			// A star is not a read change: the counters stay.
			expect(treeState.unread(6)).toBe(before);
			await vi.waitFor(
				() =>
					expect(server.sent('updateArticle')).toEqual([
						expect.objectContaining({ article_ids: String(script), mode: '1', field: '0' })
					]),
				REPLAY_WAIT
			);
			await sent();
		});

		it('the rows and counters change in the input’s task; the outbox write waits for its paint', async () => {
			const { headlines, treeState, pendingItems, row, sent, setFlag } = await page();
			// Frames held here: the paint comes when the test says.
			const frames: FrameRequestCallback[] = [];
			vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
			const before = treeState.unread(6);
			const done = setFlag([row(big1)], 'unread', false);
			// Synchronously, before any task: what the next frame paints.
			expect(headlines.find(big1)?.unread).toBe(false);
			expect(treeState.unread(6)).toBe(before - 1);
			// No outbox write before the paint (a wait shorter than perf/paint.ts's limit for pages
			// without frames; the write takes a few ms once it may start).
			await new Promise((resolve) => setTimeout(resolve, 40));
			expect(await pendingItems()).toEqual([]);
			for (const frame of frames.splice(0)) frame(0);
			expect(await done).toBe(true);
			await sent();
		});

		it('a read article moves its feed’s counter and All articles’ at once', async () => {
			const { treeState, row, sent, setFlag } = await page();
			// Big feed item 001 is in feed 6 (Uncategorized); it is not fresh, so Fresh stays.
			expect(await setFlag([row(big1)], 'unread', false)).toBe(true);
			expect(treeState.unread(6)).toBe(299);
			expect(treeState.unread(0, true)).toBe(309);
			expect(treeState.unread(-4)).toBe(336);
			expect(treeState.unread(-3)).toBe(337);
			await sent();
		});

		it('queues nothing for articles that already have the value', async () => {
			const { server, pendingItems, row, setFlag } = await page();
			// Big feed item 001 is starred already.
			expect(await setFlag([row(big1)], 'starred', true)).toBe(true);
			expect(await pendingItems()).toEqual([]);
			expect(server.sent('updateArticle')).toEqual([]);
		});

		it('is undone, with the reason, when the device cannot store the change', async () => {
			vi.doMock('$lib/outbox/enqueue', async (original) => ({
				...(await original<typeof import('$lib/outbox/enqueue')>()),
				enqueueIntent: () => Promise.reject(new DOMException('full', 'QuotaExceededError'))
			}));
			const { headlines, treeState, toasts, row, setFlag } = await page();
			expect(await setFlag([row(big1)], 'unread', false)).toBe(false);
			expect(headlines.find(big1)?.unread).toBe(true);
			expect(treeState.unread(6)).toBe(300);
			expect(toasts.items.at(-1)?.kind).toBe('error');
		});
	});

	describe('catchUp', () => {
		it('marks the loaded rows read and clears the feed’s counter', async () => {
			const { server, headlines, treeState, toasts, sent, catchUp } = await page();
			expect(await catchUp('feed', -4, 'all')).toBe(true);
			expect(headlines.items.every((h) => !h.unread)).toBe(true);
			expect(treeState.unread(-4)).toBe(0);
			expect(toasts.items.at(-1)?.text).toBe('Marked as read.');
			await sent();
			// Held for its Undo, it is bounded by what the reader saw (replay.ts); the recorded server
			// answers every read with the same page, so the bound is checked and the rows marked by id.
			expect(
				server.sent('catchupFeed').length + server.sent('updateArticle').length
			).toBeGreaterThan(0);
		});

		it('spares an article the reader marked unread that their list was asked too early to show', async () => {
			// WebKit chaos seed 4700120: the list was asked before the reader's "unread" reached the
			// server, so the article was not in it; one catchupFeed would mark it read again.
			const { server, headlines, pendingItems, row, sent, catchUp, setFlag } = await page();
			const unseen = Math.max(...listed) + 1000;
			expect(headlines.find(unseen)).toBeUndefined();
			const ref = { ...row(big1), id: unseen, unread: false };
			expect(await setFlag([ref], 'unread', true)).toBe(true);
			await sent();
			expect(await catchUp('feed', -4, 'all')).toBe(true);
			const [item] = await pendingItems();
			expect(item?.intent).toMatchObject({ type: 'catchup', spare: [unseen] });
			await sent();
			// Marked by id, the rows it covers only: never the whole feed in one call.
			expect(server.sent('catchupFeed')).toEqual([]);
			const marked = server
				.sent('updateArticle')
				.filter((p) => p.mode === '0' && p.field === '2')
				.flatMap((p) => String(p.article_ids).split(',').map(Number));
			expect(marked.length).toBeGreaterThan(0);
			expect(marked).not.toContain(unseen);
		});

		it('during a search, marks only the matches and leaves the feed’s counter to the server', async () => {
			const { server, headlines, treeState, sent, catchUp } = await page('beta');
			expect(await catchUp('feed', -4, 'all')).toBe(true);
			expect(headlines.items.every((h) => !h.unread)).toBe(true);
			// Five matches marked, one by one; not the whole feed.
			expect(treeState.unread(-4)).toBe(332);
			await sent();
			if (level === 'api15') {
				// Level 15 has no search in catchupFeed: the matches are marked read by id instead.
				expect(server.sent('catchupFeed')).toEqual([]);
				expect(server.sent('updateArticle')).toEqual([
					expect.objectContaining({ article_ids: listed.join(','), mode: '0', field: '2' })
				]);
			} else {
				// From level 22 the server marks the search's matches itself.
				expect(server.sent('catchupFeed')).toEqual([
					expect.objectContaining({ feed_id: '-4', search_query: 'beta' })
				]);
				expect(server.sent('updateArticle')).toEqual([]);
			}
		});
	});

	describe('mark above / below as read', () => {
		it('names only the unread rows on that side, in list order', async () => {
			const { headlines, unreadBeside } = await page();
			expect(headlines.items.map((h) => h.id)).toEqual(listed);
			const ids = (side: 'above' | 'below', id: number) =>
				unreadBeside(headlines.items, id, side).map((h) => h.id);
			expect(ids('above', big1)).toEqual([]);
			expect(ids('below', episode)).toEqual([]);
			expect(ids('above', 404)).toEqual([]);
			expect(ids('above', listed[3] ?? 0)).toEqual(
				headlines.items.slice(0, 3).flatMap((h) => (h.unread ? [h.id] : []))
			);
		});

		it('sends one flag change with exactly those ids and moves the counters by that many', async () => {
			const { server, treeState, row, sent, setFlag, markBesideRead } = await page();
			// One row below Script tags already read: it must not be named again.
			expect(await setFlag([row(japanese)], 'unread', false)).toBe(true);
			await sent();
			const all = treeState.unread(-4);
			const above = [big1, script].map((id) => row(id).unread);
			expect(await markBesideRead(script, 'below')).toBe(true);
			expect([big2, japanese, episode].map((id) => row(id).unread)).toEqual([false, false, false]);
			// The rows above stay as they were.
			expect([big1, script].map((id) => row(id).unread)).toEqual(above);
			expect(treeState.unread(-4)).toBe((all ?? 0) - 2);
			await sent();
			expect(server.sent('updateArticle').slice(1)).toEqual([
				expect.objectContaining({ article_ids: `${big2},${episode}`, mode: '0', field: '2' })
			]);
			expect(server.sent('catchupFeed')).toEqual([]);
		});

		it('takes the rows at the tap, not after the toast’s words have loaded', async () => {
			const { server, headlines, row, sent, setFlag, markBesideRead } = await page();
			expect(await setFlag([row(japanese)], 'unread', false)).toBe(true);
			await sent();
			const marking = markBesideRead(script, 'below');
			// The list changes before the tap's code resumes (it waits for the Undo toast's words,
			// loaded on the first such tap): a refresh shows the row below unread again. The reader
			// tapped with it read, so it is not theirs to mark.
			headlines.patchEach([{ id: japanese, patch: { unread: true } }]);
			expect(await marking).toBe(true);
			await sent();
			expect(server.sent('updateArticle').slice(1)).toEqual([
				expect.objectContaining({ article_ids: `${big2},${episode}`, mode: '0', field: '2' })
			]);
		});
	});

	describe('undo', () => {
		it('takes a catch-up back before anything is sent: rows, counters, outbox', async () => {
			const { server, headlines, treeState, toasts, pendingItems, undo, catchUp } = await page();
			const unreadBefore = headlines.items.map((h) => h.unread);
			const counter = treeState.unread(-4);
			expect(await catchUp('feed', -4, 'all', 'Marked “All articles” as read.')).toBe(true);
			expect(treeState.unread(-4)).toBe(0);
			expect(toasts.items.at(-1)?.text).toBe('Marked “All articles” as read.');
			expect(toasts.items.at(-1)?.action?.label).toBe('Undo');
			// Held: the replay the change asked for leaves it alone.
			expect((await pendingItems()).map((i) => i.intent.type)).toEqual(['catchup']);
			expect(await undo.undo()).toBe(true);
			expect(headlines.items.map((h) => h.unread)).toEqual(unreadBefore);
			expect(treeState.unread(-4)).toBe(counter);
			expect(await pendingItems()).toEqual([]);
			expect(server.sent('catchupFeed')).toEqual([]);
			expect(server.sent('updateArticle')).toEqual([]);
		});

		it('catches up a category as tt-rss does, and takes it back: feeds, categories, All, total', async () => {
			const { treeState, undo, catchUp } = await page();
			const before = treeState.counts;
			// The recorded tree: Tech (1) holds feed 1 and Web (2) with feed 2.
			const moved = (before.feeds.get(1) ?? 0) + (before.feeds.get(2) ?? 0);
			expect(moved).toBeGreaterThan(0);
			expect(await catchUp('cat', 1, 'all')).toBe(true);
			const after = treeState.counts;
			expect([1, 2].map((id) => [after.feeds.get(id), after.categories.get(id)])).toEqual([
				[0, 0],
				[0, 0]
			]);
			expect([after.feeds.get(-4), after.global]).toEqual([
				(before.feeds.get(-4) ?? 0) - moved,
				(before.global ?? 0) - moved
			]);
			expect(await undo.undo()).toBe(true);
			expect(treeState.counts).toEqual(before);
		});

		it('keeps what the reader changed after the held change', async () => {
			const { server, headlines, pendingItems, row, undo, sent, catchUp, setFlag } = await page();
			expect(await catchUp('feed', -4, 'all')).toBe(true);
			// Opened afterwards and marked unread again: that stays, and waits behind the catch-up.
			expect(await setFlag([row(big2)], 'unread', true)).toBe(true);
			expect((await pendingItems()).map((i) => i.key)).toEqual([
				expect.stringMatching(/^catchup:/),
				`flag:unread:${big2}`
			]);
			expect(server.sent('updateArticle')).toEqual([]);
			expect(await undo.undo()).toBe(true);
			expect(headlines.find(big2)?.unread).toBe(true);
			await sent();
			expect(server.sent('catchupFeed')).toEqual([]);
			expect(server.sent('updateArticle')).toEqual([
				expect.objectContaining({ article_ids: String(big2), mode: '1', field: '2' })
			]);
		});

		it('a new undoable change sends the previous one; undo takes back only the last', async () => {
			const { server, row, undo, sent, setFlag } = await page();
			expect(await setFlag([row(big1)], 'unread', false, { undo: 'Marked read.' })).toBe(true);
			expect(await setFlag([row(big2)], 'unread', false, { undo: 'Marked read.' })).toBe(true);
			expect(await undo.undo()).toBe(true);
			expect(row(big1).unread).toBe(false);
			expect(row(big2).unread).toBe(true);
			// Nothing left to undo.
			expect(await undo.undo()).toBe(false);
			await sent();
			expect(server.sent('updateArticle')).toEqual([
				expect.objectContaining({ article_ids: String(big1), mode: '0', field: '2' })
			]);
		});

		it('mark below, undone, sends nothing', async () => {
			const { server, row, undo, toasts, pendingItems, markBesideRead } = await page();
			const before = [big2, japanese, episode].map((id) => row(id).unread);
			const count = before.filter(Boolean).length;
			expect(await markBesideRead(script, 'below')).toBe(true);
			// The Undo toast's words are the catalog's plural (toast_marked_below).
			expect(toasts.items.at(-1)?.text).toBe(`Marked ${count} articles below as read.`);
			expect(await undo.undo()).toBe(true);
			expect([big2, japanese, episode].map((id) => row(id).unread)).toEqual(before);
			expect(await pendingItems()).toEqual([]);
			expect(server.sent('updateArticle')).toEqual([]);
		});
	});

	describe('a list answered while a change waits', () => {
		it('keeps the held catch-up on screen when the server’s page arrives after it', async () => {
			const { headlines, undo, catchUp } = await page();
			expect(await catchUp('feed', -4, 'all')).toBe(true);
			expect(headlines.items.every((h) => !h.unread)).toBe(true);
			// The server still has them unread (the catch-up is held): its page must not undo it.
			await headlines.refresh({ full: true });
			expect(headlines.items.length).toBeGreaterThan(0);
			expect(headlines.items.every((h) => !h.unread)).toBe(true);
			await undo.undo();
		});
	});
});
