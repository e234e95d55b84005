import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { deriveCapabilities, type GetHeadlinesParams, type TtrssClient } from '$lib/api';
import { cachedArticle } from '$lib/cache';
import { resetReaderDbForTests } from '$lib/db/open';
import { headline } from '$lib/outbox/testing/fake-server';
import { downloadForOffline, type DownloadProgress } from './download';
import { imageUrls } from './images';

beforeEach(() => {
	globalThis.indexedDB = new IDBFactory();
	resetReaderDbForTests();
});

function fakeClient(total: number, seen: GetHeadlinesParams[]): TtrssClient {
	const caps = deriveCapabilities(15);
	return {
		detectCapabilities: () => Promise.resolve(caps),
		getHeadlines: (params: GetHeadlinesParams) => {
			seen.push(params);
			const start = params.skip ?? 0;
			const end = Math.min(total, start + (params.limit ?? 200));
			const headlines = [];
			for (let i = start; i < end; i++) {
				headlines.push(
					headline(1000 + i, { content: `<p>Body ${i}</p><img src="/img/${i}.png">` })
				);
			}
			return Promise.resolve({ headlines, header: undefined });
		}
	} as unknown as TtrssClient;
}

describe('make available offline', () => {
	it('downloads the newest unread articles with content in pages of the server limit', async () => {
		const seen: GetHeadlinesParams[] = [];
		const progress: DownloadProgress[] = [];
		const result = await downloadForOffline({
			client: fakeClient(450, seen),
			count: 500,
			images: false,
			onProgress: (p) => progress.push(p)
		});
		expect(result).toMatchObject({ phase: 'done', articles: 450 });
		expect(seen.map((p) => [p.skip, p.limit])).toEqual([
			[0, 200],
			[200, 200],
			[400, 100]
		]);
		expect(seen[0]).toMatchObject({
			feedId: -4,
			viewMode: 'unread',
			showContent: true,
			includeAttachments: true,
			hasSandbox: true
		});
		expect(progress.map((p) => p.articles)).toEqual([0, 200, 400, 450, 450]);
		expect((await cachedArticle(1449))?.content).toBe('<p>Body 449</p><img src="/img/449.png">');
	});

	it('stops when cancelled and keeps what was stored', async () => {
		const controller = new AbortController();
		const seen: GetHeadlinesParams[] = [];
		const run = downloadForOffline({
			client: fakeClient(500, seen),
			count: 500,
			images: false,
			signal: controller.signal,
			onProgress: (p) => {
				if (p.articles >= 200) controller.abort();
			}
		});
		await expect(run).rejects.toThrow();
		expect(seen).toHaveLength(1);
		expect(await cachedArticle(1000)).toBeDefined();
	});

	it('finds image URLs in bodies, resolved against the article link', () => {
		expect(
			imageUrls(
				'<img src="/a.png"><img alt="" src=\'http://x.test/b.jpg\'><img src="data:x">',
				'http://feeds.test/post/1'
			)
		).toEqual(['http://feeds.test/a.png', 'http://x.test/b.jpg']);
	});
});
