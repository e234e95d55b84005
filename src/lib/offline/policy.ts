/**
 * The reader's storage choices and what the browser says about the connection: whether images
 * may be downloaded now and how large a batch to fetch. Apart from budget.ts (which re-exports
 * it) so the image download (images.ts) can ask without importing eviction.
 *
 * The choices live in IndexedDB (`settings` store, STORAGE_POLICY), not in localStorage: the
 * service worker syncs and fetches images too, and cannot read localStorage.
 */
import { getStored, isRecord, putStored, storedKey } from '$lib/db/kv';
import type { ReaderDatabase } from '$lib/db/open';
import { m, type PlainKey } from '$lib/i18n/m';

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

export const STORAGE_POLICY = storedKey<StoragePolicy>({
	store: 'settings',
	name: 'storage.policy',
	owner: 'offline/policy.ts',
	// Each field is kept or defaulted on its own (parsePolicy); only a value that is no object is bad.
	parse: (raw) => (isRecord(raw) ? parsePolicy(raw) : undefined),
	fallback: () => ({ ...DEFAULT_POLICY })
});

export async function readStoragePolicy(db?: ReaderDatabase): Promise<StoragePolicy> {
	try {
		return await getStored(STORAGE_POLICY, db);
	} catch {
		// No database (private mode, blocked upgrade): the defaults, never a broken sync.
		return DEFAULT_POLICY;
	}
}

export async function writeStoragePolicy(
	patch: Partial<StoragePolicy>,
	db?: ReaderDatabase
): Promise<StoragePolicy> {
	const next = parsePolicy({ ...(await readStoragePolicy(db)), ...patch });
	await putStored(STORAGE_POLICY, next, db);
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
	/** For the storage page: why images are or are not downloaded now (read from the catalogs when
	 * shown: a `settings_` message, in the later module the storage page waits for). */
	readonly reason: string;
}

/** A decision whose reason is the catalog's message, read when asked (never kept in one language). */
function decision(allowed: boolean, reason: PlainKey): ImagesDecision {
	return {
		allowed,
		get reason() {
			return m[reason]();
		}
	};
}

/**
 * Whether images may be downloaded now. "Always" is the reader's explicit word and wins over
 * every hint. "Wi-Fi only" downloads on Wi-Fi or a cable; where the browser does not say what the
 * link is (desktop Chromium, Firefox, WebKit) it downloads unless Data Saver is on, the link is
 * flagged metered or measures as 2G: refusing on "unknown" would mean never on most computers,
 * which are rarely on mobile data, while the hints that do exist are respected.
 */
export function decideImages(setting: ImagesSetting, hints: ConnectionHints): ImagesDecision {
	if (setting === 'never') return decision(false, 'settings_images_never_reason');
	if (setting === 'always') return decision(true, 'settings_images_always_reason');
	return onWifiOnly('images', hints);
}

/**
 * Enclosures of the packs that keep them (offline/media.ts): audio and video are tens of MB each,
 * so they follow the Wi-Fi rule whatever the images setting says, "Always" included. The pack's
 * own "keep enclosures" is the reader's "never".
 */
export function decideEnclosures(hints: ConnectionHints): ImagesDecision {
	return onWifiOnly('enclosures', hints);
}

/** The reasons of the "Wi-Fi only" rule, for images and for enclosures (each its own sentence). */
const WIFI_REASONS = {
	images: {
		saveData: 'settings_images_save_data_reason',
		wifi: 'settings_images_wifi_reason',
		notWifi: 'settings_images_not_wifi_reason',
		metered: 'settings_images_metered_reason',
		slow: 'settings_images_slow_reason',
		unknown: 'settings_images_unknown_reason'
	},
	enclosures: {
		saveData: 'settings_enclosures_save_data_reason',
		wifi: 'settings_enclosures_wifi_reason',
		notWifi: 'settings_enclosures_not_wifi_reason',
		metered: 'settings_enclosures_metered_reason',
		slow: 'settings_enclosures_slow_reason',
		unknown: 'settings_enclosures_unknown_reason'
	}
} as const satisfies Record<string, Record<string, PlainKey>>;

/** The "Wi-Fi only" rule, one place for images and enclosures. */
function onWifiOnly(what: 'images' | 'enclosures', hints: ConnectionHints): ImagesDecision {
	const reasons = WIFI_REASONS[what];
	if (hints.saveData) return decision(false, reasons.saveData);
	if (hints.type !== undefined && UNMETERED_TYPES.has(hints.type)) {
		return decision(true, reasons.wifi);
	}
	if (hints.type !== undefined && METERED_TYPES.has(hints.type)) {
		return decision(false, reasons.notWifi);
	}
	if (hints.metered) return decision(false, reasons.metered);
	if (hints.effectiveType !== undefined && SLOW_LINKS.has(hints.effectiveType)) {
		return decision(false, reasons.slow);
	}
	return decision(true, reasons.unknown);
}

/** For the sync engine: may enclosures be fetched now? */
export function enclosuresAllowed(): boolean {
	return decideEnclosures(connectionHints()).allowed;
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
