/**
 * Clean types the app sees. Wire spellings (quoted numbers, "f"/"" booleans, numeric keys,
 * `[""]` tags, `null` notes, label arrays) never leave `parse.ts`.
 * Absent or null optional values are `undefined` throughout.
 */

export interface LoginConfig {
	iconsUrl?: string;
	iconsDir?: string;
	daemonIsRunning?: boolean;
	numFeeds?: number;
	/** Level 17+: extra sort orders, e.g. `{ "title": "Title" }`. */
	customSortTypes?: Record<string, string>;
}

export interface LoginResult {
	sessionId: string;
	/** Sent by the login reply on most servers; undefined on very old ones. */
	apiLevel?: number;
	/** Level 17+ only. */
	config?: LoginConfig;
}

export interface ServerConfig {
	iconsDir: string;
	iconsUrl: string;
	daemonIsRunning: boolean;
	numFeeds: number;
	customSortTypes?: Record<string, string>;
}

export interface Label {
	/** Feed-style id in the current numbering (-1025 - n), whatever the server's age. */
	id: number;
	caption: string;
	fgColor: string;
	bgColor: string;
}

export interface LabelWithState extends Label {
	/** True when the article asked for in getLabels carries this label. */
	checked: boolean;
}

export interface Attachment {
	id: number;
	contentUrl: string;
	contentType: string;
	title: string;
	/** Seconds; the server sends it as a string, often empty. */
	duration: number | undefined;
	width: number | undefined;
	height: number | undefined;
	postId: number | undefined;
}

/** Fields shared by getHeadlines items and getArticle items. */
export interface ArticleBase {
	id: number;
	guid: string;
	title: string;
	link: string;
	unread: boolean;
	marked: boolean;
	published: boolean;
	/** Unix time in seconds. */
	updated: number;
	/** Null for articles shared to Published (they belong to no feed). */
	feedId: number | null;
	feedTitle: string | undefined;
	author: string;
	labels: Label[];
	attachments: Attachment[];
	score: number;
	note: string | undefined;
	lang: string | undefined;
	/** Hostile HTML: sanitize before rendering. Undefined when the server sent none. */
	content: string | undefined;
	/**
	 * Whether `content` was fetched under `has_sandbox` (the server then keeps embedded iframes,
	 * and the renderer may keep them, sandboxed). Set by the client from what it sent; absent on
	 * bodies cached before it was recorded, which count as fetched without it.
	 */
	hasSandbox?: boolean;
	/**
	 * The article's image (list cards, the lock screen). Where the Reader plugin signs images
	 * (`signedImages`), its proxy address, or undefined when it signed none for it.
	 */
	flavorImage: string | undefined;
	flavorStream: string | undefined;
	/** Level 21+. */
	siteUrl: string | undefined;
	/**
	 * Where tt-rss runs the Reader plugin (package/init.php): each image address of this article it
	 * signed (body, srcset, posters, image enclosures, the flavor image) → its same-origin proxy
	 * address. Present exactly when the plugin signed for this row (an empty map: none to sign);
	 * an image with no address here must then not be loaded from its host (content/url.ts
	 * `imageUrl`). Absent where the plugin is off, or the server sent the row without its hook
	 * (the current tt-rss runs it only for rows with their body).
	 */
	signedImages?: Readonly<Record<string, string>>;
	/**
	 * Where tt-rss runs the Reader plugin: the article's link signed for the plugin's page method
	 * (`reader_page`), the one address the app asks for its full text (api/page.ts). Absent where
	 * the plugin is off or older, or would not fetch the link (not a public http(s) address).
	 */
	pageUrl?: string;
}

export interface Headline extends ArticleBase {
	isUpdated: boolean;
	tags: string[];
	excerpt: string | undefined;
	commentsCount: number;
	commentsLink: string;
	alwaysDisplayAttachments: boolean;
	flavorKind: number | undefined;
}

export interface Article extends ArticleBase {
	comments: string;
}

/** What a headline has and a single article (getArticle) does not, with the values for "none". */
export function headlineOnlyDefaults(): Omit<Headline, keyof ArticleBase> {
	return {
		isUpdated: false,
		tags: [],
		excerpt: undefined,
		commentsCount: 0,
		commentsLink: '',
		alwaysDisplayAttachments: false,
		flavorKind: undefined
	};
}

/** Header returned with `include_header` (level 12+). */
export interface HeadlinesHeader {
	id: number | string;
	firstId: number | undefined;
	isCat: boolean;
	/** True when `check_first_id` found new articles at the top: restart paging. */
	firstIdChanged: boolean;
}

export interface HeadlinesResult {
	headlines: Headline[];
	header: HeadlinesHeader | undefined;
}

/** An entry of getFeeds: a feed, or a child category when `include_nested` is set. */
export interface Feed {
	id: number;
	title: string;
	unread: number;
	isCategory: boolean;
	/** Undefined for categories and some special feeds. */
	feedUrl: string | undefined;
	catId: number | undefined;
	hasIcon: boolean;
	/** Unix time in seconds; 0 when never updated. */
	lastUpdated: number;
	orderId: number | undefined;
	/** Level 23+. */
	lastError: string | undefined;
	updateInterval: number | undefined;
}

export interface Category {
	id: number;
	title: string;
	unread: number;
	orderId: number | undefined;
}

export interface FeedCounter {
	id: number;
	unread: number;
	marked: number | undefined;
	published: number | undefined;
	/** Virtual feeds: the auxiliary counter (e.g. total for Starred). */
	aux: number | undefined;
	hasImage: boolean | undefined;
	/** Newer servers: time of the last update, as sent. */
	updated: string | undefined;
	title: string | undefined;
}

export interface CategoryCounter {
	id: number;
	unread: number;
	marked: number | undefined;
}

export interface Counters {
	globalUnread: number | undefined;
	subscribedFeeds: number | undefined;
	/** Real feeds (id > 0). */
	feeds: FeedCounter[];
	/** Special feeds (-1…-9, 0) and plugin feeds. */
	special: FeedCounter[];
	/** Label feeds, current numbering. */
	labels: FeedCounter[];
	/** One entry per category (the 2021 server repeats the last one; the last wins). */
	categories: CategoryCounter[];
}

export type SubscribeStatus =
	| 'already-subscribed'
	| 'added'
	| 'invalid-url'
	| 'no-feeds-found'
	| 'multiple-feeds'
	| 'download-failed'
	| 'invalid-feed'
	| 'database-error'
	| 'read-only'
	| 'unknown';

export interface SubscribeResult {
	code: number;
	status: SubscribeStatus;
	/** Codes 0 and 1, level 14+. */
	feedId: number | undefined;
	/** Code 4: url → title of the feeds found. */
	feeds: Record<string, string> | undefined;
	/** Code 5 and others: the server's explanation. */
	message: string | undefined;
}

/** A node of getFeedTree, normalised. */
export interface FeedTreeNode {
	type: 'category' | 'feed';
	/** Numeric id (`bare_id`); label feeds in the current numbering. */
	id: number;
	name: string;
	/** Undefined when the server left it out (-1 for ordinary feeds: use getCounters). */
	unread: number | undefined;
	auxCounter: number | undefined;
	/** Feeds: whether the server has an icon; the icon path when it sent one. */
	icon: string | undefined;
	error: string | undefined;
	updatesDisabled: boolean;
	/** Label feeds only. */
	fgColor: string | undefined;
	bgColor: string | undefined;
	children: FeedTreeNode[];
}

export interface TreeFeed {
	id: number;
	title: string;
	unread: number | undefined;
	error: string | undefined;
	/** Labels only (from getFeedTree, or getLabels in the fallback). */
	fgColor?: string;
	bgColor?: string;
	/** False when the server said it has no icon for this feed (nothing to ask it for). */
	hasIcon?: boolean;
}

export interface TreeCategory {
	id: number;
	title: string;
	unread: number | undefined;
	categories: TreeCategory[];
	feeds: TreeFeed[];
}

/** One normalised tree, whether it came from getFeedTree or from getCategories + getFeeds. */
export interface FeedTree {
	/** Real categories (and Uncategorized, id 0), nested. */
	categories: TreeCategory[];
	/** Starred, Published, Fresh, All, Recently read, Archived and plugin feeds. */
	special: TreeFeed[];
	labels: TreeFeed[];
	/** Feeds outside any category (servers with categories turned off). */
	feeds: TreeFeed[];
	source: 'getFeedTree' | 'getCategories+getFeeds';
}

export interface UpdateResult {
	/** Articles the server matched (not necessarily changed). */
	updated: number;
}
