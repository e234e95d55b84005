/**
 * Reply parsers: wire shapes (as recorded from real servers, see tests/fixtures/recorded) into
 * the clean types of `types.ts`. Each throws ShapeError on a shape it cannot use; the client
 * turns that into ApiError BAD_REPLY.
 */
import { isLabelFeedId, labelIdFromWire, type Capabilities } from './capabilities';
import type {
	Article,
	ArticleBase,
	Attachment,
	Category,
	CategoryCounter,
	Counters,
	Feed,
	FeedCounter,
	FeedTreeNode,
	Headline,
	HeadlinesHeader,
	HeadlinesResult,
	Label,
	LabelWithState,
	LoginConfig,
	LoginResult,
	ServerConfig,
	SubscribeResult,
	SubscribeStatus,
	UpdateResult
} from './types';
import { clientError } from './error-make';
import {
	ShapeError,
	arr,
	bool,
	isObject,
	num,
	obj,
	optNumber,
	optString,
	str,
	text,
	type JsonObject
} from './wire';

type LabelCaps = Pick<Capabilities, 'legacyLabelIds'>;

const MODERN: LabelCaps = { legacyLabelIds: false };

function optText(value: unknown): string | undefined {
	const s = optString(value);
	return s === undefined || s === '' ? undefined : s;
}

function stringRecord(value: unknown): Record<string, string> | undefined {
	// PHP encodes an empty associative array as [].
	if (Array.isArray(value) && value.length === 0) return {};
	if (!isObject(value)) return undefined;
	const out: Record<string, string> = {};
	for (const [key, v] of Object.entries(value)) {
		const s = optString(v);
		if (s !== undefined) out[key] = s;
	}
	return out;
}

export function parseLogin(content: unknown): LoginResult {
	const o = obj(content, 'login');
	const result: LoginResult = { sessionId: str(o.session_id, 'session_id') };
	const level = optNumber(o.api_level);
	if (level !== undefined) result.apiLevel = level;
	if (isObject(o.config)) result.config = parseLoginConfig(o.config);
	return result;
}

function parseLoginConfig(o: JsonObject): LoginConfig {
	const config: LoginConfig = {};
	const iconsUrl = optString(o.icons_url);
	if (iconsUrl !== undefined) config.iconsUrl = iconsUrl;
	const iconsDir = optString(o.icons_dir);
	if (iconsDir !== undefined) config.iconsDir = iconsDir;
	if ('daemon_is_running' in o) config.daemonIsRunning = bool(o.daemon_is_running);
	const numFeeds = optNumber(o.num_feeds);
	if (numFeeds !== undefined) config.numFeeds = numFeeds;
	const sorts = stringRecord(o.custom_sort_types);
	if (sorts !== undefined) config.customSortTypes = sorts;
	return config;
}

export function parseConfig(content: unknown): ServerConfig {
	const o = obj(content, 'getConfig');
	const config: ServerConfig = {
		iconsDir: text(o.icons_dir),
		iconsUrl: text(o.icons_url),
		daemonIsRunning: bool(o.daemon_is_running),
		numFeeds: optNumber(o.num_feeds) ?? 0
	};
	const sorts = stringRecord(o.custom_sort_types);
	if (sorts !== undefined) config.customSortTypes = sorts;
	return config;
}

export function parseApiLevel(content: unknown): number {
	return num(obj(content, 'getApiLevel').level, 'level');
}

export function parseVersionReply(content: unknown): string {
	return str(obj(content, 'getVersion').version, 'version');
}

export function parseLoggedIn(content: unknown): boolean {
	return bool(obj(content, 'isLoggedIn').status);
}

export function parseUnread(content: unknown): number {
	return num(obj(content, 'getUnread').unread, 'unread');
}

export function parsePref(content: unknown): unknown {
	const o = obj(content, 'getPref');
	if (!('value' in o)) throw new ShapeError('getPref: no value');
	return o.value;
}

/** `{"status":"OK"}` replies. */
export function parseOk(content: unknown): void {
	const o = obj(content, 'status');
	if (o.status !== 'OK') throw new ShapeError('expected status OK');
}

export function parseUpdated(content: unknown): UpdateResult {
	const o = obj(content, 'update');
	if (o.status !== 'OK') throw new ShapeError('expected status OK');
	return { updated: optNumber(o.updated) ?? 0 };
}

function parseAttachment(value: unknown): Attachment {
	// Attachments carry named keys and numeric duplicates ("0", "1", …): only named keys are read.
	const o = obj(value, 'attachment');
	return {
		id: num(o.id, 'attachment.id'),
		contentUrl: text(o.content_url),
		contentType: text(o.content_type),
		title: text(o.title),
		duration: optNumber(o.duration),
		width: optNumber(o.width),
		height: optNumber(o.height),
		postId: optNumber(o.post_id)
	};
}

/** Headline labels are `[[feed_style_id, caption, fg_color, bg_color], …]`. */
function parseLabelRef(value: unknown, caps: LabelCaps): Label {
	if (Array.isArray(value)) {
		return {
			id: labelIdFromWire(num(value[0], 'label id'), caps),
			caption: text(value[1]),
			fgColor: text(value[2]),
			bgColor: text(value[3])
		};
	}
	const o = obj(value, 'label');
	return {
		id: labelIdFromWire(num(o.id, 'label id'), caps),
		caption: text(o.caption),
		fgColor: text(o.fg_color),
		bgColor: text(o.bg_color)
	};
}

function parseTags(value: unknown): string[] {
	const raw = Array.isArray(value)
		? value.map((tag) => optString(tag) ?? '')
		: typeof value === 'string'
			? value.split(',')
			: [];
	return raw.map((tag) => tag.trim()).filter((tag) => tag !== '');
}

function list<T>(value: unknown, field: string, parse: (item: unknown) => T): T[] {
	if (value === undefined || value === null || value === '') return [];
	return arr(value, field).map(parse);
}

/**
 * The Reader plugin's `reader_images` (package/init.php): every image URL it signed for the row
 * (body, srcset, posters, image enclosures, the flavor image) → its proxy address. PHP sends an
 * empty one as `[]` or `{}`; undefined where the plugin did not run for the row.
 */
function signedImages(value: unknown): Record<string, string> | undefined {
	if (value === undefined || value === null) return undefined;
	const record = stringRecord(value);
	if (record === undefined) return undefined;
	return Object.fromEntries(Object.entries(record).filter(([, proxied]) => proxied !== ''));
}

/**
 * The flavor image through the proxy when the plugin signed it; none when the plugin signs this
 * row's images but not that one (it is never loaded from its host then). tt-rss names it by its own
 * URL, and 2021's picks it only after the plugin's hook, so the plugin cannot rewrite it there.
 */
function proxiedFlavor(
	signed: Record<string, string> | undefined,
	flavor: unknown
): string | undefined {
	const url = optText(flavor);
	if (url === undefined || signed === undefined) return url;
	return signed[url];
}

/** The plugin's signed page address (`reader_page`), kept only when it is a string. */
function pageUrlOf(value: unknown): { pageUrl?: string } {
	return typeof value === 'string' && value.trim() !== '' ? { pageUrl: value.trim() } : {};
}

function parseArticleBase(o: JsonObject, caps: LabelCaps): ArticleBase {
	const feedId = optNumber(o.feed_id);
	const signed = signedImages(o.reader_images);
	return {
		id: num(o.id, 'id'),
		guid: text(o.guid),
		title: text(o.title),
		link: text(o.link),
		unread: bool(o.unread),
		marked: bool(o.marked),
		published: bool(o.published),
		updated: optNumber(o.updated) ?? 0,
		feedId: feedId ?? null,
		feedTitle: optString(o.feed_title),
		author: text(o.author),
		labels: list(o.labels, 'labels', (l) => parseLabelRef(l, caps)),
		attachments: list(o.attachments, 'attachments', parseAttachment),
		score: optNumber(o.score) ?? 0,
		note: optText(o.note),
		lang: optText(o.lang),
		content: optString(o.content),
		flavorImage: proxiedFlavor(signed, o.flavor_image),
		flavorStream: optText(o.flavor_stream),
		siteUrl: optText(o.site_url),
		...(signed ? { signedImages: signed } : {}),
		...pageUrlOf(o.reader_page)
	};
}

export function parseHeadline(value: unknown, caps: LabelCaps = MODERN): Headline {
	const o = obj(value, 'headline');
	return {
		...parseArticleBase(o, caps),
		isUpdated: bool(o.is_updated),
		tags: parseTags(o.tags),
		excerpt: optString(o.excerpt),
		commentsCount: optNumber(o.comments_count) ?? 0,
		commentsLink: text(o.comments_link),
		alwaysDisplayAttachments: bool(o.always_display_attachments),
		flavorKind: optNumber(o.flavor_kind)
	};
}

function parseHeader(value: unknown): HeadlinesHeader {
	const o = obj(value, 'header');
	const id = optNumber(o.id) ?? optString(o.id) ?? 0;
	return {
		id,
		firstId: optNumber(o.first_id),
		isCat: bool(o.is_cat),
		firstIdChanged: bool(o.first_id_changed)
	};
}

/**
 * getHeadlines answers a list, or with `include_header` `[header, [headlines…]]`.
 * A header is told apart from a headline list by the second element being a list.
 */
export function parseHeadlines(content: unknown, caps: LabelCaps = MODERN): HeadlinesResult {
	const items = arr(content, 'getHeadlines');
	if (items.length === 2 && isObject(items[0]) && Array.isArray(items[1])) {
		return {
			header: parseHeader(items[0]),
			headlines: items[1].map((h) => parseHeadline(h, caps))
		};
	}
	return { header: undefined, headlines: items.map((h) => parseHeadline(h, caps)) };
}

export function parseArticles(content: unknown, caps: LabelCaps = MODERN): Article[] {
	// Always a list on real servers; a lone object is accepted for safety.
	const items = isObject(content) ? [content] : arr(content, 'getArticle');
	return items.map((value) => {
		const o = obj(value, 'article');
		return { ...parseArticleBase(o, caps), comments: text(o.comments) };
	});
}

export function parseFeeds(content: unknown, caps: LabelCaps = MODERN): Feed[] {
	return arr(content, 'getFeeds').map((value) => {
		const o = obj(value, 'feed');
		const isCategory = bool(o.is_cat);
		const id = num(o.id, 'feed.id');
		return {
			id: isCategory ? id : labelIdFromWire(id, caps),
			title: text(o.title),
			unread: optNumber(o.unread) ?? 0,
			isCategory,
			feedUrl: optText(o.feed_url),
			catId: optNumber(o.cat_id),
			hasIcon: bool(o.has_icon),
			lastUpdated: optNumber(o.last_updated) ?? 0,
			orderId: optNumber(o.order_id),
			lastError: optText(o.last_error),
			updateInterval: optNumber(o.update_interval)
		};
	});
}

export function parseCategories(content: unknown): Category[] {
	return arr(content, 'getCategories').map((value) => {
		const o = obj(value, 'category');
		return {
			id: num(o.id, 'category.id'),
			title: text(o.title),
			unread: optNumber(o.unread) ?? 0,
			orderId: optNumber(o.order_id)
		};
	});
}

export function parseLabels(content: unknown, caps: LabelCaps = MODERN): LabelWithState[] {
	return arr(content, 'getLabels').map((value) => {
		const o = obj(value, 'label');
		return {
			id: labelIdFromWire(num(o.id, 'label.id'), caps),
			caption: text(o.caption),
			fgColor: text(o.fg_color),
			bgColor: text(o.bg_color),
			checked: bool(o.checked)
		};
	});
}

export function parseCounters(content: unknown, caps: LabelCaps = MODERN): Counters {
	const counters: Counters = {
		globalUnread: undefined,
		subscribedFeeds: undefined,
		feeds: [],
		special: [],
		labels: [],
		categories: []
	};
	const categories = new Map<number, CategoryCounter>();
	for (const value of arr(content, 'getCounters')) {
		if (!isObject(value)) continue;
		if (value.id === 'global-unread') {
			counters.globalUnread = optNumber(value.counter);
			continue;
		}
		if (value.id === 'subscribed-feeds') {
			counters.subscribedFeeds = optNumber(value.counter);
			continue;
		}
		const id = optNumber(value.id);
		// Tag counters and anything else without a numeric id are not used by the app.
		if (id === undefined) continue;
		const unread = optNumber(value.counter) ?? 0;
		if (value.kind === 'cat') {
			categories.set(id, { id, unread, marked: optNumber(value.markedcounter) });
			continue;
		}
		const feedId = labelIdFromWire(id, caps);
		const entry: FeedCounter = {
			id: feedId,
			unread,
			marked: optNumber(value.markedcounter),
			published: optNumber(value.publishedcounter),
			aux: optNumber(value.auxcounter),
			hasImage: 'has_img' in value ? bool(value.has_img) : undefined,
			updated: optText(value.updated) ?? optText(value.ts),
			title: optText(value.title)
		};
		if (feedId > 0) counters.feeds.push(entry);
		else if (isLabelFeedId(feedId)) counters.labels.push(entry);
		else counters.special.push(entry);
	}
	counters.categories = [...categories.values()];
	return counters;
}

const SUBSCRIBE_STATUS: readonly SubscribeStatus[] = [
	'already-subscribed',
	'added',
	'invalid-url',
	'no-feeds-found',
	'multiple-feeds',
	'download-failed',
	'invalid-feed',
	'database-error',
	'read-only'
];

export function parseSubscribe(content: unknown): SubscribeResult {
	const status = obj(obj(content, 'subscribeToFeed').status, 'status');
	const code = num(status.code, 'status.code');
	return {
		code,
		status: SUBSCRIBE_STATUS[code] ?? 'unknown',
		feedId: optNumber(status.feed_id),
		feeds: stringRecord(status.feeds),
		message: optText(status.message)
	};
}

/**
 * How deep getFeedTree's categories may nest. tt-rss's own UI nests a few levels; the bound keeps
 * a broken or hostile reply from exhausting the stack here and in every recursive renderer after.
 */
export const MAX_TREE_DEPTH = 64;

/** Parses a getFeedTree node: `{id:"CAT:3"|"FEED:5", bare_id, name, type?, unread, items…}`. */
function parseTreeNode(value: unknown, caps: LabelCaps, depth: number): FeedTreeNode {
	if (depth > MAX_TREE_DEPTH) {
		throw clientError('getFeedTree', 'REPLY_TOO_DEEP', { details: { maxDepth: MAX_TREE_DEPTH } });
	}
	const o = obj(value, 'tree node');
	const rawId = text(o.id);
	// Feeds inside real categories have no `type`: the id prefix tells.
	const type =
		o.type === 'category' || rawId.startsWith('CAT:')
			? 'category'
			: o.type === 'feed' || rawId.startsWith('FEED:')
				? 'feed'
				: Array.isArray(o.items)
					? 'category'
					: 'feed';
	const bareId = optNumber(o.bare_id) ?? optNumber(rawId.replace(/^(CAT|FEED):/, ''));
	if (bareId === undefined) throw new ShapeError('tree node: no id');
	const unread = optNumber(o.unread);
	const icon = o.icon;
	return {
		type,
		id: type === 'feed' ? labelIdFromWire(bareId, caps) : bareId,
		name: text(o.name),
		unread: unread === undefined || unread < 0 ? undefined : unread,
		auxCounter: optNumber(o.auxcounter),
		icon: typeof icon === 'string' && icon !== '' ? icon : undefined,
		error: optText(o.error),
		updatesDisabled: bool(o.updates_disabled),
		fgColor: optText(o.fg_color),
		bgColor: optText(o.bg_color),
		children: list(o.items, 'items', (item) => parseTreeNode(item, caps, depth + 1))
	};
}

/** getFeedTree: `{categories: {identifier, label, items: [...]}}`; returns the top-level nodes. */
export function parseFeedTree(content: unknown, caps: LabelCaps = MODERN): FeedTreeNode[] {
	const root = obj(obj(content, 'getFeedTree').categories, 'categories');
	return list(root.items, 'items', (item) => parseTreeNode(item, caps, 1));
}
