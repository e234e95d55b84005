import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signedInPage, type Replies } from './testing/recorded-server';

/** All articles (rows 1, 321, 2, 332, 339) and getArticle as the test bed answers it. */
const READER: Replies = { getHeadlines: 'getHeadlines-header', getArticle: 'getArticle' };

async function page(replies: Replies = READER) {
	const { server } = await signedInPage(replies);
	const { headlines, listQueryFor } = await import('./headlines.svelte');
	const { articleState } = await import('./article.svelte');
	const { cachedArticle } = await import('$lib/cache');
	await headlines.open(listQueryFor('feed', '-4', { viewMode: 'adaptive', sortOrder: 'default' }));
	return { server, headlines, articleState, cachedArticle };
}

afterEach(() => {
	vi.unstubAllGlobals();
});

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
		const opening = articleState.open(1);
		await vi.waitFor(() => expect(server.sent('getArticle')).toHaveLength(1));
		expect(articleState.article?.title).toBe('Big feed item 001 (beta)');
		expect(articleState.article?.content).toBe('');
		answer();
		await opening;
		expect(articleState.article?.content).not.toBe('');
		expect(server.sent('getArticle')[0]).toMatchObject({ article_id: '1', sanitize: true });
		expect((await cachedArticle(1))?.content).toBe(articleState.article?.content);
	});

	it('takes its flags from the headline row, which every action changes', async () => {
		const { headlines, articleState } = await page();
		await articleState.open(1);
		expect(articleState.article?.marked).toBe(true);
		headlines.patch([1], { marked: false });
		expect(articleState.article?.marked).toBe(false);
	});

	it('without the server: the row stays on screen with the reason', async () => {
		const { articleState } = await page({ ...READER, getArticle: () => undefined });
		await articleState.open(321);
		expect(articleState.article?.id).toBe(321);
		expect(articleState.error).toMatch(/./);
	});

	it('a late answer for an article the reader left does not replace the one open', async () => {
		let answer: () => void = () => undefined;
		const answered = new Promise<void>((resolve) => (answer = resolve));
		const { articleState } = await page({
			...READER,
			// Article 1's answer comes late; 321's never (the server went away).
			getArticle: async (r) => {
				if (r.body.article_id !== '1') return undefined;
				await answered;
				return 'getArticle';
			}
		});
		const left = articleState.open(1);
		await articleState.open(321);
		answer();
		await left;
		expect(articleState.id).toBe(321);
		expect(articleState.article?.id).toBe(321);
		expect(articleState.error).toMatch(/./);
	});

	it('close forgets the article', async () => {
		const { articleState } = await page();
		await articleState.open(1);
		articleState.close();
		expect(articleState.id).toBeUndefined();
		expect(articleState.article).toBeUndefined();
	});
});

describe('an article opened without its row', () => {
	it('an article opened without its row (a notification, a link) shows the reader’s queued change', async () => {
		await signedInPage({ getArticle: 'getArticle' });
		// Queued, not sent yet (offline, or held for an Undo): article 1 unstarred.
		const { enqueueIntent } = await import('$lib/outbox/outbox');
		await enqueueIntent({ type: 'flag', field: 'starred', articleIds: [1], value: false });
		const { articleState } = await import('./article.svelte');
		await articleState.open(1);
		expect(articleState.error).toBeUndefined();
		const { cachedArticle } = await import('$lib/cache');
		expect({
			cache: (await cachedArticle(1))?.marked,
			screen: articleState.article?.marked
		}).toEqual({ cache: false, screen: false });
	});
});
