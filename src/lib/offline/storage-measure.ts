/**
 * The offline copy's size (docs/storage.md): the reader's storage budget, and what the articles,
 * images and enclosures kept on this device take, estimated (what the storage page shows, and
 * what the eviction in offline/budget.ts measures against the budget).
 */
import type { ReaderDatabase } from '$lib/db/open';
import { allStoredArticles } from '$lib/db/later-reads';
import type { StoredArticle } from '$lib/db/schema';
import { isEvictedFirst, protectedArticleIds } from '$lib/db/quota';
import { IMAGE_CACHE, MEDIA_CACHE, storageEstimate, type StorageEstimateInfo } from './storage';
import { OPAQUE_MEDIA_BYTES } from './media';
import { readStoragePolicy, type StoragePolicy } from './policy';

// ------------------------------------------------------------------ the budget

const MB = 1024 * 1024;
/** Without a quota from the browser (old engines): a budget most phones can spare. */
export const FALLBACK_BUDGET_MB = 250;

/**
 * The default budget: a tenth of the quota the browser grants this origin, between 50 MB and
 * 1 GB, in whole 10 MB. Chromium grants up to 60 % of the disk, Firefox 10 % and WebKit about
 * 1 GB to start, so a tenth leaves room for the rest of the origin and for growth, and the bounds
 * keep it useful on a small phone and modest on a large disk.
 */
export function defaultBudgetMB(estimate: Pick<StorageEstimateInfo, 'quota'>): number {
	if (estimate.quota === undefined || !(estimate.quota > 0)) return FALLBACK_BUDGET_MB;
	const tenth = estimate.quota / 10 / MB;
	return Math.min(1024, Math.max(50, Math.round(tenth / 10) * 10));
}

/** The budget in bytes: the reader's, else the automatic one. */
export function budgetOf(
	policy: StoragePolicy,
	estimate: Pick<StorageEstimateInfo, 'quota'>
): number {
	return (policy.budgetMB ?? defaultBudgetMB(estimate)) * MB;
}

// ------------------------------------------------------------------ measuring

/**
 * An article's share of the database, estimated: its strings (content, title, excerpt, author,
 * link, note) at two bytes a character, as engines may store them, plus the fixed fields.
 * Exact sizes are not available from IndexedDB; this errs on the large side.
 */
export function articleBytes(article: StoredArticle): number {
	let chars = 0;
	for (const text of [
		article.content,
		article.title,
		article.excerpt,
		article.author,
		article.link,
		article.note,
		article.comments,
		// A kept full text (issue 59) and the signed addresses of its images.
		article.fullText?.content,
		article.fullText?.title,
		article.fullText?.byline
	]) {
		if (typeof text === 'string') chars += text.length;
	}
	for (const [image, proxied] of Object.entries(article.fullText?.images ?? {}))
		chars += image.length + proxied.length;
	return chars * 2 + ARTICLE_OVERHEAD_BYTES;
}

/** Ids, flags, dates, labels and attachments of one record, roughly. */
const ARTICLE_OVERHEAD_BYTES = 512;

/**
 * An image from a feed host is an opaque response (fetched `no-cors`): neither its headers nor its
 * body can be read, so its size is unknown and this estimate stands in. (Chromium charges its quota
 * about 7 MB per opaque response whatever its size; that is accounting, not disk.)
 */
export const OPAQUE_IMAGE_BYTES = 150 * 1024;

export interface KeptImage {
	url: string;
	bytes: number;
	/** True when `bytes` is OPAQUE_IMAGE_BYTES, not a measured size. */
	estimated: boolean;
}

/** The kept images in insertion order (oldest first), each with its size. */
export function keptImages(): Promise<KeptImage[]> {
	return keptEntries(IMAGE_CACHE, OPAQUE_IMAGE_BYTES);
}

/** The kept enclosures of offline packs (media.ts), oldest first, each with its size. */
export function keptMedia(): Promise<KeptImage[]> {
	return keptEntries(MEDIA_CACHE, OPAQUE_MEDIA_BYTES);
}

async function keptEntries(cacheName: string, opaqueBytes: number): Promise<KeptImage[]> {
	if (typeof caches === 'undefined') return [];
	try {
		// Opening creates: ask first, so measuring leaves no empty cache behind.
		if (!(await caches.has(cacheName))) return [];
		const cache = await caches.open(cacheName);
		const requests = await cache.keys();
		const entries: KeptImage[] = [];
		for (const request of requests) {
			const response = await cache.match(request);
			entries.push({ url: request.url, ...(await responseBytes(response, opaqueBytes)) });
		}
		return entries;
	} catch {
		// Cache Storage unavailable (private mode): nothing is kept there.
		return [];
	}
}

async function responseBytes(
	response: Response | undefined,
	opaqueBytes: number
): Promise<{ bytes: number; estimated: boolean }> {
	if (!response || response.type === 'opaque') return { bytes: opaqueBytes, estimated: true };
	const length = Number(response.headers.get('content-length'));
	if (Number.isFinite(length) && length > 0) return { bytes: length, estimated: false };
	try {
		return { bytes: (await response.blob()).size, estimated: false };
	} catch {
		return { bytes: opaqueBytes, estimated: true };
	}
}

/** What the storage page shows. */
export interface StorageReport {
	articles: {
		total: number;
		unread: number;
		starred: number;
		/** In at least one offline pack. */
		inPacks: number;
		/** Read, not starred or published, in no pack: what eviction drops first. */
		read: number;
		/** Named by a change in the outbox or the failed list: never dropped. */
		neededByOutbox: number;
		bytes: number;
	};
	images: { count: number; bytes: number; estimated: boolean };
	/** Enclosures of offline packs (audio, video). */
	media: { count: number; bytes: number; estimated: boolean };
	/** Articles, images and media together, in bytes (the figure the budget is compared with). */
	bytes: number;
	budget: number;
	policy: StoragePolicy;
	estimate: StorageEstimateInfo;
}

export async function measureStorage(db?: ReaderDatabase): Promise<StorageReport> {
	const [articles, outboxIds, images, media, policy, estimate] = await Promise.all([
		allStoredArticles(db),
		protectedArticleIds(db),
		keptImages(),
		keptMedia(),
		readStoragePolicy(db),
		storageEstimate()
	]);
	const counts = {
		total: articles.length,
		unread: 0,
		starred: 0,
		inPacks: 0,
		read: 0,
		neededByOutbox: 0,
		bytes: 0
	};
	for (const article of articles) {
		counts.bytes += articleBytes(article);
		if (article.unread) counts.unread++;
		if (article.marked) counts.starred++;
		if (article.packs && article.packs.length > 0) counts.inPacks++;
		if (isEvictedFirst(article)) counts.read++;
		if (outboxIds.has(article.id)) counts.neededByOutbox++;
	}
	const imageBytes = sumBytes(images);
	const mediaBytes = sumBytes(media);
	const budget = budgetOf(policy, estimate);
	return {
		articles: counts,
		images: {
			count: images.length,
			bytes: imageBytes,
			estimated: images.some((image) => image.estimated)
		},
		media: {
			count: media.length,
			bytes: mediaBytes,
			estimated: media.some((file) => file.estimated)
		},
		bytes: counts.bytes + imageBytes + mediaBytes,
		budget,
		policy,
		estimate
	};
}

export const sumBytes = (entries: readonly KeptImage[]): number =>
	entries.reduce((sum, entry) => sum + entry.bytes, 0);
