/**
 * Op parameters: camelCase TypeScript names mapped to the wire names in this one place.
 * Each mapper takes the server's capabilities and leaves out what the server's level does not
 * know (older servers ignore or reject unknown parameters), as documented in docs/api.md.
 */
import { labelIdToWire, type Capabilities } from './capabilities';
import { ArticleField, UpdateMode } from './codes';
import { clientError } from './error-make';
import { compact, wireIds, wireNumber, type WireValue } from './wire';

type Wire = Record<string, string | boolean>;

/** A feed id: a number, or (level 15+, getHeadlines) a tag name for tag feeds. */
export type FeedId = number | string;

export type ViewMode =
	'all_articles' | 'unread' | 'adaptive' | 'marked' | 'updated' | 'published' | 'has_note';

/** `date_reverse` oldest first, `feed_dates` by feed date; `title` on newer servers. */
export type OrderBy = 'date_reverse' | 'feed_dates' | 'title' | (string & {});
export type SearchMode = 'all_feeds' | 'this_feed' | 'this_cat';
export type MatchOn = 'title' | 'content' | 'both';

export interface GetHeadlinesParams {
	feedId: FeedId;
	/** Capped by the server: 60 below level 6, 200 from 6 (see Capabilities.headlineLimit). */
	limit?: number;
	skip?: number;
	filter?: string;
	isCat?: boolean;
	showExcerpt?: boolean;
	/** Level 11+. Sent with a default of 100 when `showExcerpt` is set (else the excerpt is "…"). */
	excerptLength?: number;
	showContent?: boolean;
	viewMode?: ViewMode;
	includeAttachments?: boolean;
	sinceId?: number;
	includeNested?: boolean;
	/** Level 5+. */
	orderBy?: OrderBy;
	/** Level 7+. */
	sanitize?: boolean;
	/** Level 9+. */
	forceUpdate?: boolean;
	/** Level 10+. Send true only where iframes really are sandboxed. */
	hasSandbox?: boolean;
	/** Level 12+. */
	includeHeader?: boolean;
	/** Level 2+; below, a search is refused (UNSUPPORTED) rather than answered unfiltered. */
	search?: string;
	searchMode?: SearchMode;
	matchOn?: MatchOn;
	/** Level 12+: the `first_id` of the first page; with `skip` > 0 the server flags new arrivals. */
	checkFirstId?: number;
}

const DEFAULT_EXCERPT_LENGTH = 100;

/**
 * Asks for article bodies whose images go through the Reader plugin's signed same-origin proxy
 * (package/init.php, HOOK_RENDER_ARTICLE_API). A server without the plugin ignores the unknown
 * parameter and sends the images' own URLs, so the flag is the detection: nothing else changes.
 */
export const IMAGE_PROXY_FLAG = 'reader_image_proxy';

function feedIdToWire(id: FeedId, caps: Capabilities, op: string): string {
	if (typeof id === 'string') {
		// Tag feeds (string ids) are answered from level 15 (capabilities.ts); numeric strings are plain ids.
		if (!/^-?\d+$/.test(id) && !caps.tagFeeds) {
			throw clientError(op, 'UNSUPPORTED', { details: { needsApiLevel: 15 } });
		}
		return /^-?\d+$/.test(id) ? String(labelIdToWire(Number(id), caps)) : id;
	}
	return String(labelIdToWire(Math.trunc(id), caps));
}

export function headlinesToWire(p: GetHeadlinesParams, caps: Capabilities): Wire {
	// A server without search would answer the whole feed, shown as if it were the results.
	if (p.search !== undefined && p.search !== '' && !caps.search) {
		throw clientError('getHeadlines', 'UNSUPPORTED', { details: { needsApiLevel: 2 } });
	}
	const limit = p.limit === undefined ? undefined : Math.min(p.limit, caps.headlineLimit);
	const excerptLength = p.excerptLength ?? (p.showExcerpt ? DEFAULT_EXCERPT_LENGTH : undefined);
	const params: Record<string, WireValue> = {
		feed_id: feedIdToWire(p.feedId, caps, 'getHeadlines'),
		limit: wireNumber(limit),
		skip: wireNumber(p.skip),
		filter: p.filter,
		is_cat: p.isCat,
		show_excerpt: p.showExcerpt,
		excerpt_length: caps.excerptLength ? wireNumber(excerptLength) : undefined,
		show_content: p.showContent,
		view_mode: p.viewMode,
		include_attachments: p.includeAttachments,
		since_id: wireNumber(p.sinceId),
		include_nested: p.includeNested,
		order_by: caps.orderBy ? p.orderBy : undefined,
		sanitize: caps.sanitizeHeadlines ? p.sanitize : undefined,
		force_update: caps.forceUpdate ? p.forceUpdate : undefined,
		has_sandbox: caps.hasSandbox ? p.hasSandbox : undefined,
		include_header: caps.includeHeader ? p.includeHeader : undefined,
		search: caps.search ? p.search : undefined,
		search_mode: caps.search ? p.searchMode : undefined,
		match_on: caps.search ? p.matchOn : undefined,
		check_first_id: caps.checkFirstId ? wireNumber(p.checkFirstId) : undefined,
		// Without content too: the rows' flavor images (list thumbnails, kept offline) are signed.
		[IMAGE_PROXY_FLAG]: true
	};
	return compact(params);
}

export { ArticleField, UpdateMode };

export interface UpdateArticleParams {
	articleIds: readonly number[];
	field: ArticleField;
	/** Ignored by the server for the note field. */
	mode?: UpdateMode;
	/** The note text (field 3) or the score (field 4). */
	data?: string | number;
}

export function updateArticleToWire(p: UpdateArticleParams): Wire {
	return compact({
		article_ids: wireIds(p.articleIds),
		mode: wireNumber(p.mode ?? UpdateMode.True),
		field: String(p.field),
		data: p.data === undefined ? undefined : String(p.data)
	});
}

export type CatchupMode = 'all' | '1day' | '1week' | '2week';

export interface CatchupFeedParams {
	feedId: FeedId;
	isCat?: boolean;
	/** Level 15+; older servers always mark everything read. */
	mode?: CatchupMode;
	/** Level 22+. */
	searchQuery?: string;
	searchLang?: string;
}

export function catchupToWire(p: CatchupFeedParams, caps: Capabilities): Wire {
	return compact({
		feed_id: feedIdToWire(p.feedId, caps, 'catchupFeed'),
		is_cat: p.isCat,
		mode: caps.catchupMode ? p.mode : undefined,
		search_query: caps.catchupSearch ? p.searchQuery : undefined,
		search_lang: caps.catchupSearch ? p.searchLang : undefined
	});
}

export interface GetUnreadParams {
	feedId?: FeedId;
	isCat?: boolean;
}

export function unreadToWire(p: GetUnreadParams, caps: Capabilities): Wire {
	return compact({
		feed_id: p.feedId === undefined ? undefined : feedIdToWire(p.feedId, caps, 'getUnread'),
		is_cat: p.isCat
	});
}

export interface GetCountersParams {
	/** Letters f (feeds), l (labels), c (categories), t (tags); server default "flc". */
	outputMode?: string;
}

export function countersToWire(p: GetCountersParams): Wire {
	return compact({ output_mode: p.outputMode });
}

export interface GetFeedsParams {
	/** -1 special, -2 labels, -3 all real feeds, -4 all feeds including virtual ones. */
	catId?: number;
	unreadOnly?: boolean;
	limit?: number;
	offset?: number;
	includeNested?: boolean;
}

export function feedsToWire(p: GetFeedsParams): Wire {
	return compact({
		cat_id: wireNumber(p.catId),
		unread_only: p.unreadOnly,
		limit: wireNumber(p.limit),
		offset: wireNumber(p.offset),
		include_nested: p.includeNested
	});
}

export interface GetCategoriesParams {
	unreadOnly?: boolean;
	enableNested?: boolean;
	/** Level 5+. */
	includeEmpty?: boolean;
}

export function categoriesToWire(p: GetCategoriesParams, caps: Capabilities): Wire {
	return compact({
		unread_only: p.unreadOnly,
		enable_nested: p.enableNested,
		include_empty: caps.includeEmpty ? p.includeEmpty : undefined
	});
}

export interface GetFeedTreeParams {
	/** Level 5+. */
	includeEmpty?: boolean;
}

export function feedTreeToWire(p: GetFeedTreeParams, caps: Capabilities): Wire {
	return compact({ include_empty: caps.includeEmpty ? p.includeEmpty : undefined });
}

export interface GetArticleParams {
	articleIds: readonly number[];
	/** Level 13+. */
	sanitize?: boolean;
}

export function articleToWire(p: GetArticleParams, caps: Capabilities): Wire {
	return compact({
		article_id: wireIds(p.articleIds),
		sanitize: caps.sanitizeArticle ? p.sanitize : undefined,
		[IMAGE_PROXY_FLAG]: true
	});
}

export interface SetArticleLabelParams {
	articleIds: readonly number[];
	/** Label feed id in the current numbering (as getLabels returns it). */
	labelId: number;
	assign: boolean;
}

export function setLabelToWire(p: SetArticleLabelParams, caps: Capabilities): Wire {
	return compact({
		article_ids: wireIds(p.articleIds),
		label_id: String(labelIdToWire(p.labelId, caps)),
		assign: p.assign
	});
}

export interface ShareToPublishedParams {
	title: string;
	url: string;
	content: string;
	/** Level 20+. */
	sanitize?: boolean;
}

export function shareToWire(p: ShareToPublishedParams, caps: Capabilities): Wire {
	return compact({
		title: p.title,
		url: p.url,
		content: p.content,
		sanitize: caps.sanitizeShare ? p.sanitize : undefined
	});
}

export interface SubscribeToFeedParams {
	feedUrl: string;
	/** 0 or absent: Uncategorized. */
	categoryId?: number;
	/** Credentials of the feed itself (HTTP auth), not of tt-rss. */
	login?: string;
	password?: string;
}

export function subscribeToWire(p: SubscribeToFeedParams): Wire {
	return compact({
		feed_url: p.feedUrl,
		category_id: wireNumber(p.categoryId),
		login: p.login,
		password: p.password
	});
}

export function feedIdParam(feedId: number): Wire {
	return { feed_id: String(Math.trunc(feedId)) };
}
