/**
 * Reply parsers: wire shapes (as recorded from real servers, see tests/fixtures/recorded) into
 * the clean types of `types.ts`; those of the replies that carry articles are in
 * parse-articles.ts. Each throws ShapeError on a shape it cannot use; the client
 * turns that into ApiError BAD_REPLY.
 */
import { isLabelFeedId, labelIdFromWire, MODERN_LABELS, type LabelCaps } from './capabilities';
import type {
	Category,
	CategoryCounter,
	Counters,
	Feed,
	FeedCounter,
	FeedTreeNode,
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
	list,
	num,
	obj,
	optNumber,
	optString,
	optText,
	str,
	stringRecord,
	text,
	type JsonObject
} from './wire';

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

export function parseFeeds(content: unknown, caps: LabelCaps = MODERN_LABELS): Feed[] {
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

export function parseLabels(content: unknown, caps: LabelCaps = MODERN_LABELS): LabelWithState[] {
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

export function parseCounters(content: unknown, caps: LabelCaps = MODERN_LABELS): Counters {
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
export function parseFeedTree(content: unknown, caps: LabelCaps = MODERN_LABELS): FeedTreeNode[] {
	const root = obj(obj(content, 'getFeedTree').categories, 'categories');
	return list(root.items, 'items', (item) => parseTreeNode(item, caps, 1));
}
