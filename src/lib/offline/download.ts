/**
 * "Make available offline": the newest N unread articles with their bodies, in batches of the
 * server's page size, stored in the read cache; then their images (see images.ts). Reports
 * progress through a callback and stops at once when the signal aborts (what was stored stays).
 */
import { SPECIAL_FEED, type Headline, type TtrssClient } from '$lib/api';
import { storeOfflineHeadlines } from '$lib/cache';
import { cacheImagesViaWorker, imageUrls } from './images';
import { enforceBudget } from './budget';
import { imagesAllowed } from './policy';
import { requestPersistentStorage } from './storage';

export interface DownloadProgress {
	phase: 'articles' | 'images' | 'done';
	/** Articles stored so far, and how many were asked for. */
	articles: number;
	target: number;
	imagesStored: number;
	imagesSkipped: number;
}

export interface DownloadOptions {
	client: TtrssClient;
	/** settings.values.offlineArticles (default 500). */
	count: number;
	signal?: AbortSignal;
	onProgress?: (progress: DownloadProgress) => void;
	/** Default true. */
	images?: boolean;
}

export async function downloadForOffline(options: DownloadOptions): Promise<DownloadProgress> {
	const { client, count, signal } = options;
	const progress: DownloadProgress = {
		phase: 'articles',
		articles: 0,
		target: count,
		imagesStored: 0,
		imagesSkipped: 0
	};
	const report = (): void => options.onProgress?.({ ...progress });
	report();
	// Offline copies are worth keeping: ask the browser not to evict them (and the outbox).
	void requestPersistentStorage();
	const caps = await client.detectCapabilities({ ...(signal ? { signal } : {}) });
	const pageSize = caps.headlineLimit;
	const seen = new Set<number>();
	const images: string[] = [];
	while (progress.articles < count) {
		signal?.throwIfAborted();
		const limit = Math.min(pageSize, count - progress.articles);
		const { headlines } = await client.getHeadlines(
			{
				feedId: SPECIAL_FEED.all,
				viewMode: 'unread',
				showContent: true,
				includeAttachments: true,
				hasSandbox: true,
				limit,
				skip: progress.articles
			},
			signal ? { signal } : {}
		);
		const fresh: Headline[] = headlines.filter((h) => !seen.has(h.id));
		fresh.forEach((h) => seen.add(h.id));
		if (fresh.length > 0) await storeOfflineHeadlines(fresh);
		progress.articles += fresh.length;
		for (const h of fresh) {
			images.push(...imageUrls(h.content, h.link));
			if (h.flavorImage) images.push(h.flavorImage);
		}
		report();
		if (headlines.length < limit || fresh.length === 0) break;
	}
	// The reader's images setting and the connection decide (the worker checks again).
	if (options.images !== false && images.length > 0 && (await imagesAllowed())) {
		progress.phase = 'images';
		report();
		await cacheImagesViaWorker([...new Set(images)], signal, (r) => {
			progress.imagesStored = r.stored;
			progress.imagesSkipped = r.skipped;
			report();
		});
	}
	// What was added may push the offline copy over the reader's budget: read ones go first.
	await enforceBudget().catch(() => undefined);
	progress.phase = 'done';
	report();
	return progress;
}
