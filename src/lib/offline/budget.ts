/**
 * The offline copy's limits, in one place for the page, the sync engine (src/lib/sync) and the
 * service worker: whether images may be downloaded now (the reader's setting and what the browser
 * says about the connection), how large a batch to fetch, and the storage budget with the
 * eviction that keeps the offline copy inside it (see docs/storage.md).
 *
 * The reader's choices live in IndexedDB (`settings` store, STORAGE_POLICY_KEY), not in
 * localStorage: the service worker syncs too and cannot read localStorage.
 */
import { openReaderDb, type ReaderDatabase } from '$lib/db/open';
import type { StoredArticle } from '$lib/db/schema';
import {
	dropArticles,
	dropImages,
	evictionOrder,
	isEvictedFirst,
	IMAGE_CACHE,
	protectedArticleIds,
	storageEstimate,
	type StorageEstimateInfo
} from './storage';
import { imageUrls } from './images';

// ------------------------------------------------------------------ the reader's policy

/** "Images: always / Wi-Fi only / never". */
export type ImagesSetting = 'always' | 'wifi' | 'never';
export const IMAGES_SETTINGS: readonly ImagesSetting[] = ['always', 'wifi', 'never'];

export interface StoragePolicy {
	images: ImagesSetting;
	/** The budget in MB the reader set; undefined: chosen from the browser's quota (defaultBudget). */
	budgetMB: number | undefined;
}

export const DEFAULT_POLICY: StoragePolicy = { images: 'wifi', budgetMB: undefined };
export const STORAGE_POLICY_KEY = 'storage.policy';
/** What the budget field accepts: below 20 MB a few image-heavy articles would not fit. */
export const MIN_BUDGET_MB = 20;
export const MAX_BUDGET_MB = 100_000;

/** The stored value is outside input: keep only values of the right type and range. */
export function parsePolicy(value: unknown): StoragePolicy {
	const stored =
		typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
	const images = IMAGES_SETTINGS.includes(stored.images as ImagesSetting)
		? (stored.images as ImagesSetting)
		: DEFAULT_POLICY.images;
	const mb = stored.budgetMB;
	const budgetMB =
		typeof mb === 'number' && Number.isFinite(mb) && mb >= MIN_BUDGET_MB && mb <= MAX_BUDGET_MB
			? Math.round(mb)
			: undefined;
	return { images, budgetMB };
}

export async function readStoragePolicy(db?: ReaderDatabase): Promise<StoragePolicy> {
	try {
		const database = db ?? (await openReaderDb());
		return parsePolicy(await database.get('settings', STORAGE_POLICY_KEY));
	} catch {
		// No database (private mode, blocked upgrade): the defaults, never a broken sync.
		return DEFAULT_POLICY;
	}
}

export async function writeStoragePolicy(
	patch: Partial<StoragePolicy>,
	db?: ReaderDatabase
): Promise<StoragePolicy> {
	const database = db ?? (await openReaderDb());
	const next = parsePolicy({ ...(await readStoragePolicy(database)), ...patch });
	await database.put('settings', next, STORAGE_POLICY_KEY);
	return next;
}

// ------------------------------------------------------------------ the connection

/**
 * What the browser says about the connection (Network Information API). Only Chromium has it;
 * `type` only on Android and ChromeOS. Firefox and WebKit tell nothing: every field is undefined.
 */
export interface ConnectionHints {
	saveData?: boolean;
	/** 'wifi', 'ethernet', 'cellular', 'bluetooth', 'wimax', 'none', 'other', 'unknown'. */
	type?: string;
	/** 'slow-2g', '2g', '3g', '4g': the measured speed, not the medium. */
	effectiveType?: string;
	/** An older draft's flag; honoured where a browser sends it. */
	metered?: boolean;
}

interface NetworkInformationLike {
	saveData?: unknown;
	type?: unknown;
	effectiveType?: unknown;
	metered?: unknown;
}

export function connectionHints(): ConnectionHints {
	const connection =
		typeof navigator === 'undefined'
			? undefined
			: (navigator as { connection?: NetworkInformationLike }).connection;
	if (!connection) return {};
	const hints: ConnectionHints = {};
	if (typeof connection.saveData === 'boolean') hints.saveData = connection.saveData;
	if (typeof connection.type === 'string') hints.type = connection.type;
	if (typeof connection.effectiveType === 'string') hints.effectiveType = connection.effectiveType;
	if (typeof connection.metered === 'boolean') hints.metered = connection.metered;
	return hints;
}

const UNMETERED_TYPES = new Set(['wifi', 'ethernet']);
const METERED_TYPES = new Set(['cellular', 'bluetooth', 'wimax', 'none']);
const SLOW_LINKS = new Set(['slow-2g', '2g']);

export interface ImagesDecision {
	allowed: boolean;
	/** For the storage page: why images are or are not downloaded now. */
	reason: string;
}

/**
 * Whether images may be downloaded now. "Always" is the reader's explicit word and wins over
 * every hint. "Wi-Fi only" downloads on Wi-Fi or a cable; where the browser does not say what the
 * link is (desktop Chromium, Firefox, WebKit) it downloads unless Data Saver is on, the link is
 * flagged metered or measures as 2G: refusing on "unknown" would mean never on most computers,
 * which are rarely on mobile data, while the hints that do exist are respected.
 */
export function decideImages(setting: ImagesSetting, hints: ConnectionHints): ImagesDecision {
	if (setting === 'never') return { allowed: false, reason: 'Images are never downloaded.' };
	if (setting === 'always') return { allowed: true, reason: 'Images are always downloaded.' };
	if (hints.saveData) {
		return { allowed: false, reason: 'Data Saver is on: images are not downloaded.' };
	}
	if (hints.type !== undefined && UNMETERED_TYPES.has(hints.type)) {
		return { allowed: true, reason: 'On Wi-Fi: images are downloaded.' };
	}
	if (hints.type !== undefined && METERED_TYPES.has(hints.type)) {
		return { allowed: false, reason: 'Not on Wi-Fi: images wait for Wi-Fi.' };
	}
	if (hints.metered) {
		return { allowed: false, reason: 'The connection is metered: images wait for Wi-Fi.' };
	}
	if (hints.effectiveType !== undefined && SLOW_LINKS.has(hints.effectiveType)) {
		return { allowed: false, reason: 'The connection is slow: images wait for Wi-Fi.' };
	}
	return {
		allowed: true,
		reason: 'The browser does not say whether this is Wi-Fi: images are downloaded.'
	};
}

/** For the sync engine and the offline download: may images be fetched now? */
export async function imagesAllowed(db?: ReaderDatabase): Promise<boolean> {
	const policy = await readStoragePolicy(db);
	return decideImages(policy.images, connectionHints()).allowed;
}

/**
 * How many articles to fetch per request: `normal` on a good link, a quarter under Data Saver or
 * on 2G, half on 3G, so each request finishes (and its progress is kept) on a poor link.
 */
export function batchSize(normal: number, hints: ConnectionHints = connectionHints()): number {
	const whole = Math.max(1, Math.floor(normal));
	if (hints.saveData || (hints.effectiveType && SLOW_LINKS.has(hints.effectiveType))) {
		return Math.max(1, Math.ceil(whole / 4));
	}
	if (hints.effectiveType === '3g') return Math.max(1, Math.ceil(whole / 2));
	return whole;
}

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

export async function budgetBytes(db?: ReaderDatabase): Promise<number> {
	const policy = await readStoragePolicy(db);
	const mb = policy.budgetMB ?? defaultBudgetMB(await storageEstimate());
	return mb * MB;
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
		article.comments
	]) {
		if (typeof text === 'string') chars += text.length;
	}
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
export async function keptImages(): Promise<KeptImage[]> {
	if (typeof caches === 'undefined') return [];
	try {
		const cache = await caches.open(IMAGE_CACHE);
		const requests = await cache.keys();
		const images: KeptImage[] = [];
		for (const request of requests) {
			const response = await cache.match(request);
			images.push({ url: request.url, ...(await responseBytes(response)) });
		}
		return images;
	} catch {
		// Cache Storage unavailable (private mode): nothing is kept there.
		return [];
	}
}

async function responseBytes(
	response: Response | undefined
): Promise<{ bytes: number; estimated: boolean }> {
	if (!response || response.type === 'opaque')
		return { bytes: OPAQUE_IMAGE_BYTES, estimated: true };
	const length = Number(response.headers.get('content-length'));
	if (Number.isFinite(length) && length > 0) return { bytes: length, estimated: false };
	try {
		return { bytes: (await response.blob()).size, estimated: false };
	} catch {
		return { bytes: OPAQUE_IMAGE_BYTES, estimated: true };
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
	/** Articles and images together, in bytes (the figure the budget is compared with). */
	bytes: number;
	budget: number;
	policy: StoragePolicy;
	estimate: StorageEstimateInfo;
}

export async function measureStorage(db?: ReaderDatabase): Promise<StorageReport> {
	const database = db ?? (await openReaderDb());
	const [articles, outboxIds, images, policy, estimate] = await Promise.all([
		database.getAll('articles'),
		protectedArticleIds(database),
		keptImages(),
		readStoragePolicy(database),
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
	const imageBytes = images.reduce((sum, image) => sum + image.bytes, 0);
	const budget = (policy.budgetMB ?? defaultBudgetMB(estimate)) * MB;
	return {
		articles: counts,
		images: {
			count: images.length,
			bytes: imageBytes,
			estimated: images.some((image) => image.estimated)
		},
		bytes: counts.bytes + imageBytes,
		budget,
		policy,
		estimate
	};
}

// ------------------------------------------------------------------ eviction

export interface EvictionReport {
	/** Article ids dropped, in the order they were dropped. */
	articles: number[];
	images: number;
	/** Bytes kept before and after (the estimates of measureStorage). */
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
}

/**
 * What to drop to fit `bytesToFree`, in order: read articles in no pack and not starred or
 * published, oldest stored first, each with its images; then images no kept article uses; then the
 * images of kept articles, oldest first; only then unread, starred and pack articles, oldest first.
 * Articles an outbox or failed item names are never dropped. Pure: the property test drives it.
 */
export function planEviction(
	articles: readonly StoredArticle[],
	images: readonly KeptImage[],
	outboxIds: ReadonlySet<number>,
	bytesToFree: number
): { articles: number[]; images: string[]; freed: number } {
	const plan = { articles: [] as number[], images: [] as string[], freed: 0 };
	if (bytesToFree <= 0) return plan;
	const imageBytes = new Map(images.map((image) => [image.url, image.bytes]));
	const droppedImages = new Set<string>();
	const dropImage = (url: string): void => {
		const bytes = imageBytes.get(url);
		if (bytes === undefined || droppedImages.has(url)) return;
		droppedImages.add(url);
		plan.images.push(url);
		plan.freed += bytes;
	};
	const ordered = evictionOrder(articles, outboxIds);
	const candidates = (list: readonly StoredArticle[]): Candidate[] =>
		list.map((article) => ({
			id: article.id,
			bytes: articleBytes(article),
			imageUrls: articleImageUrls(article)
		}));
	const first = candidates(ordered.readFirst);
	const later = candidates(ordered.thenOthers);
	const dropArticle = (candidate: Candidate): void => {
		plan.articles.push(candidate.id);
		plan.freed += candidate.bytes;
		// An image another kept article shows stays until that article goes.
		for (const url of candidate.imageUrls) if (!usedByKept.has(url)) dropImage(url);
	};
	// How many kept articles show each image: an image goes with the last of them.
	const users = new Map<string, number>();
	for (const candidate of [...first, ...later, ...candidates(ordered.kept)]) {
		for (const url of candidate.imageUrls) users.set(url, (users.get(url) ?? 0) + 1);
	}
	const usedByKept = new Set<string>();
	const release = (candidate: Candidate): void => {
		for (const url of candidate.imageUrls) {
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
	// Images no kept article shows (their articles went earlier, or were never cached).
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

function articleImageUrls(article: StoredArticle): string[] {
	const urls = imageUrls(article.content, article.link);
	if (article.flavorImage) urls.push(article.flavorImage);
	return urls;
}

/**
 * Keeps the offline copy inside the reader's budget: measures, plans (planEviction) and drops.
 * Called by the sync engine after each sync and by the storage page when the budget changes.
 */
export async function enforceBudget(db?: ReaderDatabase, budget?: number): Promise<EvictionReport> {
	const database = db ?? (await openReaderDb());
	const limit = budget ?? (await budgetBytes(database));
	const [articles, images, outboxIds] = await Promise.all([
		database.getAll('articles'),
		keptImages(),
		protectedArticleIds(database)
	]);
	const before =
		articles.reduce((sum, article) => sum + articleBytes(article), 0) +
		images.reduce((sum, image) => sum + image.bytes, 0);
	const plan = planEviction(articles, images, outboxIds, before - limit);
	const dropped = await dropArticles(database, plan.articles);
	await dropImages(plan.images);
	const after = before - plan.freed;
	return {
		articles: dropped,
		images: plan.images.length,
		before,
		after,
		budget: limit,
		met: after <= limit
	};
}
