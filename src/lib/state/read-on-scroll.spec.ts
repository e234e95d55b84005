import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordedLevels } from '$support/fake-fetch';
import type { MuteSettings } from '$lib/mute/settings';
import { recordedRows, signedInPage } from '$support/recorded-server';

/** What a step may take on a loaded 2-core machine (it failed 1 run in 5 at vi.waitFor's 1 s). */
const WITHIN = { timeout: 15_000 };

describe.each(recordedLevels)('recorded %s replies', (level) => {
	const { ids, script } = recordedRows(level);

	/**
	 * All articles: five rows, all unread; "mark read while scrolling" on or off; `muted`, the
	 * reader's muted words, if any.
	 */
	async function page(markReadOnScroll: boolean, muted?: MuteSettings) {
		const { server, session } = await signedInPage(
			{
				getHeadlines: 'getHeadlines-header',
				getCounters: 'getCounters',
				updateArticle: 'updateArticle'
			},
			level
		);
		const storage = new Map<string, string>();
		vi.stubGlobal('localStorage', {
			getItem: (k: string) => storage.get(k) ?? null,
			setItem: (k: string, v: string) => storage.set(k, v)
		});
		const { headlines, listQueryFor } = await import('./headlines.svelte');
		const { settings } = await import('./settings.svelte');
		const { readOnScroll, READ_ON_SCROLL_PAUSE_MS } = await import('./read-on-scroll');
		const { pendingItems } = await import('$lib/outbox/outbox');
		settings.update({ markReadOnScroll });
		if (muted) {
			const { mute } = await import('$lib/mute/mute.svelte');
			await mute.save(session.account ?? '', muted);
		}
		await headlines.open(
			listQueryFor('feed', '-4', { viewMode: 'adaptive', sortOrder: 'default' })
		);
		const unread = () => headlines.items.filter((h) => h.unread).map((h) => h.id);
		const sent = () => vi.waitFor(async () => expect(await pendingItems()).toEqual([]), WITHIN);
		return { server, unread, sent, onScrolledPast: readOnScroll(), pause: READ_ON_SCROLL_PAUSE_MS };
	}

	afterEach(() => {
		vi.useRealTimers();
		vi.unstubAllGlobals();
	});

	describe('mark read while scrolling', () => {
		it('marks the rows scrolled past in one change once the scrolling pauses', async () => {
			const { server, unread, sent, onScrolledPast, pause } = await page(true);
			vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
			onScrolledPast(1);
			onScrolledPast(3);
			vi.advanceTimersByTime(pause - 1);
			expect(unread()).toEqual(ids);
			vi.advanceTimersByTime(1);
			vi.useRealTimers();
			// The first change loads the actions' modules: seconds on a loaded machine, not one.
			await vi.waitFor(() => expect(unread()).toEqual(ids.slice(3)), WITHIN);
			// Sent once: awaited on the server's side (the queue is empty before the change is in it, too).
			await vi.waitFor(
				() =>
					expect(server.sent('updateArticle')).toEqual([
						expect.objectContaining({
							article_ids: ids.slice(0, 3).join(','),
							mode: '0',
							field: '2'
						})
					]),
				WITHIN
			);
			await sent();
			expect(server.sent('updateArticle')).toHaveLength(1);
		});

		it('leaves a row the muted words hide unread when they do not say to mark hidden rows read', async () => {
			// "Script tags" (the list's second row) is hidden by a muted word; the reader scrolls
			// past the first two rows shown, which stand on either side of it.
			const muted: MuteSettings = { words: ['script'], content: false, markRead: false };
			const { server, unread, sent, onScrolledPast, pause } = await page(true, muted);
			expect(ids[1]).toBe(script);
			const shown = ids.filter((id) => id !== script);
			vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
			onScrolledPast(2);
			vi.advanceTimersByTime(pause);
			vi.useRealTimers();
			await vi.waitFor(() => expect(server.sent('updateArticle')).toHaveLength(1), WITHIN);
			await sent();
			// The two rows scrolled past, and not the hidden one between them: the reader never saw
			// it, and the muted words say to leave hidden rows as they are.
			expect(server.sent('updateArticle')).toEqual([
				expect.objectContaining({ article_ids: shown.slice(0, 2).join(','), mode: '0' })
			]);
			expect(unread()).toContain(script);
		});

		it('marks a hidden row the reader asked to see like any other', async () => {
			const muted: MuteSettings = { words: ['script'], content: false, markRead: false };
			const { server, sent, onScrolledPast, pause } = await page(true, muted);
			const { mute } = await import('$lib/mute/mute.svelte');
			mute.showHidden = true;
			vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
			onScrolledPast(2);
			vi.advanceTimersByTime(pause);
			vi.useRealTimers();
			await vi.waitFor(() => expect(server.sent('updateArticle')).toHaveLength(1), WITHIN);
			await sent();
			expect(server.sent('updateArticle')).toEqual([
				expect.objectContaining({ article_ids: ids.slice(0, 2).join(','), mode: '0' })
			]);
		});

		it('does nothing while the setting is off', async () => {
			const { unread, onScrolledPast, pause } = await page(false);
			vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
			onScrolledPast(3);
			vi.advanceTimersByTime(pause);
			expect(unread()).toEqual(ids);
		});
	});
});
