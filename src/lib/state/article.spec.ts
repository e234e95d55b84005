import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordedLevels } from '$support/fake-fetch';
import { recordedRows, signedInPage, type Replies } from '$support/recorded-server';
import { afterQueuedChangesRead } from '$support/queued-race';

/** All articles (five rows) and getArticle (Big feed item 001 and Script tags) as recorded. */
const READER: Replies = { getHeadlines: 'getHeadlines-header', getArticle: 'getArticle' };

afterEach(() => {
	vi.unstubAllGlobals();
});

describe.each(recordedLevels)('recorded %s replies', (level) => {
	const { big1, script } = recordedRows(level);

	async function page(replies: Replies = READER) {
		const { server } = await signedInPage(replies, level);
		const { headlines, listQueryFor } = await import('./headlines.svelte');
		const { articleState } = await import('./article.svelte');
		const { cachedArticle } = await import('$lib/cache/cache-reads');
		await headlines.open(
			listQueryFor('feed', '-4', { viewMode: 'adaptive', sortOrder: 'default' })
		);
		return { server, headlines, articleState, cachedArticle };
	}

	describe('opening an article', () => {
		it('shows its headline row at once, then the body from the server, and keeps it', async () => {
			let answer: () => void = () => undefined;
			const answered = new Promise<void>((resolve) => (answer = resolve));
			const { server, articleState, cachedArticle } = await page({
				...READER,
				getArticle: async () => {
					await answered;
					return 'getArticle';
				}
			});
			const opening = articleState.open(big1);
			await vi.waitFor(() => expect(server.sent('getArticle')).toHaveLength(1));
			expect(articleState.article?.title).toBe('Big feed item 001 (beta)');
			// No body yet: "" from the 2021 server's headline, none from newer ones.
			expect(articleState.article?.content ?? '').toBe('');
			answer();
			await opening;
			expect(articleState.article?.content).toContain('Body of big feed item 1');
			expect(server.sent('getArticle')[0]).toMatchObject({
				article_id: String(big1),
				sanitize: true
			});
			expect((await cachedArticle(big1))?.content).toBe(articleState.article?.content);
		});

		it('takes its flags from the headline row, which every action changes', async () => {
			const { headlines, articleState } = await page();
			await articleState.open(big1);
			expect(articleState.article?.marked).toBe(true);
			headlines.patch([big1], { marked: false });
			expect(articleState.article?.marked).toBe(false);
		});

		it('without the server: the row stays on screen with the reason', async () => {
			const { articleState } = await page({ ...READER, getArticle: () => undefined });
			await articleState.open(script);
			expect(articleState.article?.id).toBe(script);
			expect(articleState.error).toMatch(/./);
		});

		it('a late answer for an article the reader left does not replace the one open', async () => {
			let answer: () => void = () => undefined;
			const answered = new Promise<void>((resolve) => (answer = resolve));
			const { articleState } = await page({
				...READER,
				// Big feed item 001's answer comes late; Script tags' never (the server went away).
				getArticle: async (r) => {
					if (r.body.article_id !== String(big1)) return undefined;
					await answered;
					return 'getArticle';
				}
			});
			const left = articleState.open(big1);
			await articleState.open(script);
			answer();
			await left;
			expect(articleState.id).toBe(script);
			expect(articleState.article?.id).toBe(script);
			expect(articleState.error).toMatch(/./);
		});

		it('a change the reader makes as it opens stays on screen over the cached copy, with or without the server', async () => {
			// The article route opens it and marks it read in the same task (the tap); the cache
			// has the change only once the outbox write is in, after the paint.
			const { headlines, articleState } = await page({ ...READER, getArticle: () => undefined });
			const { setFlag } = await import('./actions');
			const row = headlines.find(big1);
			expect(row?.unread).toBe(true);
			const load = articleState.open(big1);
			void setFlag([row!], 'unread', false);
			await load;
			// The server did not answer (offline, a slow reply): the reader's change still shows.
			expect(articleState.error).toMatch(/./);
			expect(articleState.article?.unread).toBe(false);
		});

		it('close forgets the article', async () => {
			const { articleState } = await page();
			await articleState.open(big1);
			articleState.close();
			expect(articleState.id).toBeUndefined();
			expect(articleState.article).toBeUndefined();
		});
	});

	describe('an article opened without its row', () => {
		it('an article opened without its row (a notification, a link) shows the reader’s queued change', async () => {
			await signedInPage({ getArticle: 'getArticle' }, level);
			// Queued, not sent yet (offline, or held for an Undo): Big feed item 001 unstarred.
			const { enqueueIntent } = await import('$lib/outbox/enqueue');
			await enqueueIntent({ type: 'flag', field: 'starred', articleIds: [big1], value: false });
			const { articleState } = await import('./article.svelte');
			await articleState.open(big1);
			expect(articleState.error).toBeUndefined();
			const { cachedArticle } = await import('$lib/cache/cache-reads');
			expect({
				cache: (await cachedArticle(big1))?.marked,
				screen: articleState.article?.marked
			}).toEqual({ cache: false, screen: false });
		});

		it('its answer, whose queued changes were read before the reader’s change, does not take it back', async () => {
			// The moment of the race, made certain: the reader's change lands after the answer's
			// queued changes were read and before the article takes the answer (issue 22).
			const { meanwhile } = afterQueuedChangesRead();
			try {
				const { server, articleState } = await page({ ...READER, updateArticle: 'updateArticle' });
				const { headlines } = await import('./headlines.svelte');
				const { setFlag } = await import('./actions');
				const { pendingItems } = await import('$lib/outbox/outbox');
				// Opened once (its body cached), then again without its row (a link): the cached
				// copy shows while the server is asked.
				await articleState.open(script);
				articleState.close();
				headlines.reset();
				const releaseUpdates = server.hold('updateArticle');
				let read: Promise<boolean> | undefined;
				meanwhile(() => {
					const shown = articleState.article;
					if (shown) read = setFlag([shown], 'unread', false);
				});
				await articleState.open(script);
				expect(read).toBeDefined();
				expect(articleState.article?.unread).toBe(false);
				expect(await read).toBe(true);
				releaseUpdates();
				await vi.waitFor(async () => expect(await pendingItems()).toEqual([]), { timeout: 5000 });
			} finally {
				vi.doUnmock('$lib/outbox/outbox');
			}
		});
	});
});
