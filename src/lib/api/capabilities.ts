/**
 * What a server can do, derived once from its API level (and version, where the level cannot
 * tell). Callers ask these flags instead of comparing level numbers.
 */

export interface Capabilities {
	apiLevel: number;
	/** From getVersion; undefined when not asked or not answered. */
	version: string | undefined;
	/** Largest `limit` getHeadlines honours: 60 below level 6, 200 from 6. */
	headlineLimit: number;
	/** getLabels / setArticleLabel (level 1). */
	labels: boolean;
	/** updateArticle field 3, the note (level 1). */
	noteField: boolean;
	/** getHeadlines `search`, `search_mode`, `match_on` (level 2). */
	search: boolean;
	/** shareToPublished (level 4). */
	shareToPublished: boolean;
	/** subscribeToFeed / unsubscribeFeed (level 5). */
	subscribe: boolean;
	/** getFeedTree (level 5); otherwise getCategories + getFeeds. */
	feedTree: boolean;
	/** `feed_title` in headlines (level 3). */
	feedTitleInHeadlines: boolean;
	/** getHeadlines `order_by` (level 5, host 1.7.6); servers below ignore it. */
	orderBy: boolean;
	/** getCategories / getFeedTree `include_empty` (level 5). */
	includeEmpty: boolean;
	/** getHeadlines `sanitize` (level 7). */
	sanitizeHeadlines: boolean;
	/** `note` in headlines (level 8). */
	noteInHeadlines: boolean;
	/** getHeadlines `force_update` (level 9). */
	forceUpdate: boolean;
	/** getHeadlines `has_sandbox` (level 10). */
	hasSandbox: boolean;
	/** getHeadlines `excerpt_length` (level 11). */
	excerptLength: boolean;
	/** getHeadlines `check_first_id` and `include_header` (level 12). */
	checkFirstId: boolean;
	includeHeader: boolean;
	/** getArticle `sanitize` (level 13). */
	sanitizeArticle: boolean;
	/** `feed_id` in the subscribeToFeed reply (level 14). */
	subscribeReturnsFeedId: boolean;
	/** catchupFeed `mode` (level 15). */
	catchupMode: boolean;
	/** updateArticle field 4 = score (level 16). */
	scoreField: boolean;
	/** `config` object in the login reply, `custom_sort_types` (level 17). */
	loginConfig: boolean;
	/**
	 * String tag feed ids in getHeadlines. Documented from level 18, but the Debian 21.02 server
	 * (level 15) answers them (tests/contract/read.spec.ts): from 15.
	 */
	tagFeeds: boolean;
	/** getFeedIcon (level 19). */
	feedIcon: boolean;
	/** shareToPublished `sanitize` (level 20). */
	sanitizeShare: boolean;
	/** `site_url` in headlines (level 21). */
	siteUrl: boolean;
	/** catchupFeed `search_query` / `search_lang` (level 22). */
	catchupSearch: boolean;
	/** `last_error`, `update_interval` in getFeeds (level 23). */
	feedErrors: boolean;
	/** Hosts before 1.7.5 number label feeds -11 - id instead of -1025 - id. */
	legacyLabelIds: boolean;
}

/**
 * Splits "1.7.4", "21.02-abc1234" or "Debian 21~git20210204…" (the Debian package) into
 * numbers; empty when unparsable.
 */
export function parseVersion(version: string | undefined): number[] {
	if (!version) return [];
	const match = /(\d+(?:\.\d+)*)/.exec(version);
	if (!match?.[1]) return [];
	return match[1].split('.').map(Number);
}

/** -1, 0 or 1 as `a` is older, equal or newer than `b`. */
export function compareVersions(a: readonly number[], b: readonly number[]): number {
	for (let i = 0; i < Math.max(a.length, b.length); i++) {
		const d = (a[i] ?? 0) - (b[i] ?? 0);
		if (d !== 0) return d < 0 ? -1 : 1;
	}
	return 0;
}

function hasLegacyLabelIds(apiLevel: number, version: string | undefined): boolean {
	if (apiLevel >= 5) return false; // level 5 arrived with 1.7.6
	const parsed = parseVersion(version);
	// Without a version, a server below level 5 is at most 1.7.5; assume the old numbering,
	// since most such hosts are older than 1.7.5.
	if (parsed.length === 0) return true;
	return compareVersions(parsed, [1, 7, 5]) < 0;
}

export function deriveCapabilities(apiLevel: number, version?: string): Capabilities {
	const at = (level: number): boolean => apiLevel >= level;
	return {
		apiLevel,
		version,
		headlineLimit: at(6) ? 200 : 60,
		labels: at(1),
		noteField: at(1),
		search: at(2),
		shareToPublished: at(4),
		subscribe: at(5),
		feedTree: at(5),
		feedTitleInHeadlines: at(3),
		orderBy: at(5),
		includeEmpty: at(5),
		sanitizeHeadlines: at(7),
		noteInHeadlines: at(8),
		forceUpdate: at(9),
		hasSandbox: at(10),
		excerptLength: at(11),
		checkFirstId: at(12),
		includeHeader: at(12),
		sanitizeArticle: at(13),
		subscribeReturnsFeedId: at(14),
		catchupMode: at(15),
		scoreField: at(16),
		loginConfig: at(17),
		tagFeeds: at(15),
		feedIcon: at(19),
		sanitizeShare: at(20),
		siteUrl: at(21),
		catchupSearch: at(22),
		feedErrors: at(23),
		legacyLabelIds: hasLegacyLabelIds(apiLevel, version)
	};
}

/** Label feed ids: current servers use -1025 - n, hosts before 1.7.5 used -11 - n. */
const LABEL_BASE = -1024;
const LEGACY_LABEL_BASE = -10;
const LEGACY_SHIFT = LABEL_BASE - LEGACY_LABEL_BASE; // -1014

export function isLabelFeedId(id: number, legacy = false): boolean {
	return legacy ? id < LEGACY_LABEL_BASE && id > LABEL_BASE : id < LABEL_BASE;
}

/** Wire label id → the current numbering used everywhere in the app. */
export function labelIdFromWire(id: number, caps: Pick<Capabilities, 'legacyLabelIds'>): number {
	return caps.legacyLabelIds && isLabelFeedId(id, true) ? id + LEGACY_SHIFT : id;
}

/** The app's label id (current numbering) → what this server expects. */
export function labelIdToWire(id: number, caps: Pick<Capabilities, 'legacyLabelIds'>): number {
	return caps.legacyLabelIds && isLabelFeedId(id) ? id - LEGACY_SHIFT : id;
}

/** What a reply's parser needs to know to read a label's id. */
export type LabelCaps = Pick<Capabilities, 'legacyLabelIds'>;

/** A current server's label ids (the parsers' default). */
export const MODERN_LABELS: LabelCaps = { legacyLabelIds: false };
