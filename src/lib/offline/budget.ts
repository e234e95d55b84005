/**
 * The offline copy kept inside the reader's storage budget, for the page, the sync engine
 * (src/lib/sync) and the service worker: the eviction that drops what is over it, and the storage
 * page's clearing by hand. The budget and the measuring are offline/storage-measure.ts's. See
 * docs/storage.md.
 */
import type { ReaderDatabase } from '$lib/db/open';
import { allStoredArticles } from '$lib/db/later-reads';
import type { StoredArticle } from '$lib/db/schema';
import {
	dropArticles,
	dropCached,
	dropImages,
	evictionOrder,
	protectedArticleIds
} from '$lib/db/quota';
import { MEDIA_CACHE, requestPersistentStorage, storageEstimate } from './storage';
import { articleImageUrls as keptImageUrls } from './images';
import { enclosureUrls } from './media';
import { readStoragePolicy } from './policy';
import {
	articleBytes,
	budgetOf,
	keptImages,
	keptMedia,
	sumBytes,
	type KeptImage
} from './storage-measure';

// ------------------------------------------------------------------ eviction

export interface EvictionReport {
	/** Article ids dropped, in the order they were dropped. */
	articles: number[];
	images: number;
	/** Enclosures dropped (with their articles, or kept by no article). */
	media: number;
	/**
	 * Bytes kept before and after: the estimates of measureStorage, or the browser's usage when
	 * that alone showed the copy within the budget (nothing was measured or dropped then).
	 */
	before: number;
	after: number;
	budget: number;
	/** False when only what the outbox needs is left and it is still over the budget. */
	met: boolean;
}

interface Candidate {
	id: number;
	bytes: number;
	imageUrls: string[];
	mediaUrls: string[];
}

export interface EvictionPlan {
	articles: number[];
	images: string[];
	media: string[];
	freed: number;
}

/**
 * What to drop to fit `bytesToFree`, in order: read articles in no pack and not starred or
 * published, oldest stored first, each with its images and enclosures; then images and enclosures
 * no kept article uses; then the images of kept articles, oldest first; only then unread, starred
 * and pack articles, oldest first, each with its images and enclosures. An enclosure never goes
 * before its article: the reader kept the pack for it. Articles an outbox or failed item names are
 * never dropped. Pure: the property test drives it.
 */
export function planEviction(
	articles: readonly StoredArticle[],
	images: readonly KeptImage[],
	outboxIds: ReadonlySet<number>,
	bytesToFree: number,
	media: readonly KeptImage[] = []
): EvictionPlan {
	const plan: EvictionPlan = { articles: [], images: [], media: [], freed: 0 };
	if (bytesToFree <= 0) return plan;
	const dropper = (entries: readonly KeptImage[], into: string[]) => {
		const sizes = new Map(entries.map((entry) => [entry.url, entry.bytes]));
		const dropped = new Set<string>();
		return (url: string): void => {
			const bytes = sizes.get(url);
			if (bytes === undefined || dropped.has(url)) return;
			dropped.add(url);
			into.push(url);
			plan.freed += bytes;
		};
	};
	const dropImage = dropper(images, plan.images);
	const dropMedia = dropper(media, plan.media);
	const ordered = evictionOrder(articles, outboxIds);
	const candidates = (list: readonly StoredArticle[]): Candidate[] =>
		list.map((article) => ({
			id: article.id,
			bytes: articleBytes(article),
			imageUrls: articleImageUrls(article),
			mediaUrls: enclosureUrls(article)
		}));
	const first = candidates(ordered.readFirst);
	const later = candidates(ordered.thenOthers);
	const dropArticle = (candidate: Candidate): void => {
		plan.articles.push(candidate.id);
		plan.freed += candidate.bytes;
		// A file another kept article shows stays until that article goes.
		for (const url of candidate.imageUrls) if (!usedByKept.has(url)) dropImage(url);
		for (const url of candidate.mediaUrls) if (!usedByKept.has(url)) dropMedia(url);
	};
	// How many kept articles show each file: a file goes with the last of them.
	const users = new Map<string, number>();
	const filesOf = (candidate: Candidate): string[] => [
		...new Set([...candidate.imageUrls, ...candidate.mediaUrls])
	];
	for (const candidate of [...first, ...later, ...candidates(ordered.kept)]) {
		for (const url of filesOf(candidate)) users.set(url, (users.get(url) ?? 0) + 1);
	}
	const usedByKept = new Set<string>();
	const release = (candidate: Candidate): void => {
		for (const url of filesOf(candidate)) {
			const left = (users.get(url) ?? 1) - 1;
			users.set(url, left);
			if (left > 0) usedByKept.add(url);
			else usedByKept.delete(url);
		}
	};
	for (const url of users.keys()) usedByKept.add(url);
	const done = (): boolean => plan.freed >= bytesToFree;

	for (const candidate of first) {
		if (done()) return plan;
		release(candidate);
		dropArticle(candidate);
	}
	// Files no kept article shows (their articles went earlier, or were never cached).
	for (const file of media) {
		if (done()) return plan;
		if (!users.get(file.url)) dropMedia(file.url);
	}
	for (const image of images) {
		if (done()) return plan;
		if (!users.get(image.url)) dropImage(image.url);
	}
	// Images are cheaper to lose than an unread article: the text stays readable.
	for (const image of images) {
		if (done()) return plan;
		dropImage(image.url);
	}
	for (const candidate of later) {
		if (done()) return plan;
		release(candidate);
		dropArticle(candidate);
	}
	return plan;
}

/** The images the worker kept for an article (images.ts: through the proxy where it signed them). */
function articleImageUrls(article: StoredArticle): string[] {
	return keptImageUrls(article, article.signedImages);
}

let askedToKeep = false;

/**
 * The offline copy (and the outbox) is worth keeping: once per page, after a sync filled it, ask
 * the browser not to clear it under pressure. Chromium decides by itself without asking the reader;
 * Firefox asks once and remembers; where persist() is missing (older WebKit, the worker) nothing
 * happens.
 */
function askToKeepOnce(): void {
	if (askedToKeep) return;
	askedToKeep = true;
	void requestPersistentStorage();
}

/**
 * Keeps the offline copy inside the reader's budget: measures, plans (planEviction) and drops.
 * Called by the sync engine after each sync and by the storage page when the budget changes.
 */
export async function enforceBudget(db?: ReaderDatabase, budget?: number): Promise<EvictionReport> {
	askToKeepOnce();
	const [policy, estimate] = await Promise.all([readStoragePolicy(db), storageEstimate()]);
	const limit = budget ?? budgetOf(policy, estimate);
	// The browser's own figure covers all the app keeps: within the budget, reading every article
	// to measure it (after each sync) would be work for nothing.
	if (estimate.usage !== undefined && estimate.usage <= limit) {
		return {
			articles: [],
			images: 0,
			media: 0,
			before: estimate.usage,
			after: estimate.usage,
			budget: limit,
			met: true
		};
	}
	const [articles, images, media, outboxIds] = await Promise.all([
		allStoredArticles(db),
		keptImages(),
		keptMedia(),
		protectedArticleIds(db)
	]);
	const before =
		articles.reduce((sum, article) => sum + articleBytes(article), 0) +
		sumBytes(images) +
		sumBytes(media);
	const plan = planEviction(articles, images, outboxIds, before - limit, media);
	const dropped = await dropArticles(db, plan.articles);
	await dropImages(plan.images);
	await dropCached(MEDIA_CACHE, plan.media);
	const after = before - plan.freed;
	return {
		articles: dropped,
		images: plan.images.length,
		media: plan.media.length,
		before,
		after,
		budget: limit,
		met: after <= limit
	};
}

// ------------------------------------------------------------------ clearing by hand

/** What the storage page clears: never the outbox or the failed list, nor what they name. */
export type ClearKind = 'read' | 'images' | 'media' | 'articles';

export interface ClearResult {
	articles: number;
	images: number;
	media: number;
}

/**
 * The storage page's "Clear": read articles (as eviction would drop first), images, enclosures,
 * or every cached article but those a queued or refused change names. Images and enclosures no
 * remaining article shows go with their articles.
 */
export async function clearStored(kind: ClearKind, db?: ReaderDatabase): Promise<ClearResult> {
	const [images, media] = await Promise.all([keptImages(), keptMedia()]);
	const urls = (entries: readonly KeptImage[]): string[] => entries.map((entry) => entry.url);
	if (kind === 'images') {
		return { articles: 0, images: await dropImages(urls(images)), media: 0 };
	}
	if (kind === 'media') {
		return { articles: 0, images: 0, media: await dropCached(MEDIA_CACHE, urls(media)) };
	}
	const [articles, outboxIds] = await Promise.all([allStoredArticles(db), protectedArticleIds(db)]);
	const order = evictionOrder(articles, outboxIds);
	const chosen = kind === 'read' ? order.readFirst : [...order.readFirst, ...order.thenOthers];
	const dropped = new Set(
		await dropArticles(
			db,
			chosen.map((article) => article.id)
		)
	);
	const left = articles.filter((article) => !dropped.has(article.id));
	const shown = new Set(
		left.flatMap((article) => [...articleImageUrls(article), ...enclosureUrls(article)])
	);
	const orphans = (entries: readonly KeptImage[]): string[] =>
		urls(entries).filter((url) => !shown.has(url));
	return {
		articles: dropped.size,
		images: await dropImages(orphans(images)),
		media: await dropCached(MEDIA_CACHE, orphans(media))
	};
}
