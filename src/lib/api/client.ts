/**
 * The tt-rss client: one typed method per op of the API, over the session (api/ttrss-session.ts:
 * sending, logging in again, capability detection). The only code in the app that talks to
 * tt-rss; it has no DOM or Svelte dependency so the service worker can use it.
 */
import { serverError } from './error-make';
import { ApiError, failWithWords } from './errors';
import {
	articleToWire,
	catchupToWire,
	categoriesToWire,
	countersToWire,
	feedIdParam,
	feedTreeToWire,
	feedsToWire,
	headlinesToWire,
	setLabelToWire,
	shareToWire,
	subscribeToWire,
	unreadToWire,
	updateArticleToWire,
	ArticleField,
	type CatchupFeedParams,
	type GetArticleParams,
	type GetCategoriesParams,
	type GetCountersParams,
	type GetFeedTreeParams,
	type GetFeedsParams,
	type GetHeadlinesParams,
	type GetUnreadParams,
	type SetArticleLabelParams,
	type ShareToPublishedParams,
	type SubscribeToFeedParams,
	type UpdateArticleParams
} from './params';
import { parseArticles, parseHeadlines } from './parse-articles';
import {
	parseCategories,
	parseConfig,
	parseCounters,
	parseFeedTree,
	parseFeeds,
	parseLabels,
	parseOk,
	parsePref,
	parseSubscribe,
	parseUnread,
	parseUpdated
} from './parse';
import {
	parseSharedSettings,
	PLUGIN_MISSING,
	SHARED_SETTINGS_OP,
	sharedSettingsUrl,
	type SharedItems,
	type SharedSettingsReply
} from './shared-settings-op';
import { Transport, type BinaryReply } from './transport';
import { TtrssSession, type OpOptions, type TtrssClientOptions } from './ttrss-session';
import { treeFromLists, treeFromNodes, LABELS_CATEGORY, SPECIAL_CATEGORY } from './tree';
import type {
	Article,
	ArticleBase,
	Category,
	Counters,
	Feed,
	FeedTree,
	FeedTreeNode,
	HeadlinesResult,
	LabelWithState,
	ServerConfig,
	SubscribeResult,
	UpdateResult
} from './types';
import { isObject, parseReply } from './wire';

export type {
	Credentials,
	CredentialsProvider,
	OpOptions,
	TtrssClientOptions
} from './ttrss-session';

export interface LoadFeedTreeOptions extends OpOptions {
	/** Use getCategories + getFeeds even where getFeedTree exists (tests, broken servers). */
	forceFallback?: boolean;
}

export class TtrssClient extends TtrssSession {
	/** The Reader plugin's shared-settings method, beside the API (made at its first use). */
	private sharedTransport: Transport | undefined;
	/**
	 * The session whose last getHeadlines sent `has_sandbox: true`. The server keeps that flag in
	 * the session and sanitizes getArticle's bodies by it too.
	 */
	private sandboxedSid: string | undefined;
	private proxy: boolean | undefined;
	private readonly onImageProxy: ((on: boolean) => void) | undefined;

	constructor(options: TtrssClientOptions) {
		super(options);
		this.proxy = options.imageProxy;
		this.onImageProxy = options.onImageProxy;
	}

	/**
	 * Whether the Reader plugin signs this account's images (undefined: no reply has said yet).
	 * While it does, no image is loaded from a feed's host (content/url.ts `imageUrl`), even for a
	 * row the plugin's hook did not see.
	 */
	get imageProxy(): boolean | undefined {
		return this.proxy;
	}

	/**
	 * What a reply says of the plugin: a row with `reader_images` (we always ask for it) says it
	 * is on; rows sent with their bodies and none of them says it is off, as both tt-rss versions
	 * run its hook for such rows (the current one for no others).
	 */
	private noteImageProxy(rows: readonly ArticleBase[], withBodies: boolean): void {
		const on = rows.some((row) => row.signedImages !== undefined);
		if (!on && !(withBodies && rows.length > 0)) return;
		if (this.proxy === on) return;
		this.proxy = on;
		this.onImageProxy?.(on);
	}

	/**
	 * The reader's settings kept by the Reader plugin (package/shared-settings.php): sends `put`
	 * (none: only reads) and answers every item after the server's merge. Without the plugin:
	 * UNKNOWN_METHOD or PLUGIN_DISABLED as an ApiError, or a transport error (tt-rss's public.php
	 * answers an unknown plugin with its own error object).
	 */
	async sharedSettings(put: SharedItems = {}, opts: OpOptions = {}): Promise<SharedSettingsReply> {
		this.sharedTransport ??= new Transport({
			...this.transportOptions,
			apiUrl: sharedSettingsUrl(this.transport.apiUrl)
		});
		const content = await this.send(this.sharedTransport, SHARED_SETTINGS_OP, { put }, opts);
		// tt-rss's public.php answers a plugin it does not have with its own error object.
		if (isObject(content) && isObject(content.error)) {
			return failWithWords(serverError(SHARED_SETTINGS_OP, PLUGIN_MISSING, 'call'));
		}
		try {
			return parseReply(SHARED_SETTINGS_OP, content, parseSharedSettings);
		} catch (error) {
			return failWithWords(error);
		}
	}

	async getConfig(opts?: OpOptions): Promise<ServerConfig> {
		return this.op('getConfig', {}, opts, parseConfig);
	}

	/** A user preference, e.g. `getPref('ENABLE_FEED_CATS')`; the value as the server sends it. */
	async getPref(prefName: string, opts?: OpOptions): Promise<unknown> {
		return this.op('getPref', { pref_name: prefName }, opts, parsePref);
	}

	// ---------------------------------------------------------------- lists and counters

	async getUnread(params: GetUnreadParams = {}, opts?: OpOptions): Promise<number> {
		const caps = await this.detectCapabilities(opts);
		return this.op('getUnread', unreadToWire(params, caps), opts, parseUnread);
	}

	async getCounters(params: GetCountersParams = {}, opts?: OpOptions): Promise<Counters> {
		const caps = await this.detectCapabilities(opts);
		return this.op('getCounters', countersToWire(params), opts, (c) => parseCounters(c, caps));
	}

	async getFeeds(params: GetFeedsParams = {}, opts?: OpOptions): Promise<Feed[]> {
		const caps = await this.detectCapabilities(opts);
		return this.op('getFeeds', feedsToWire(params), opts, (c) => parseFeeds(c, caps));
	}

	async getCategories(params: GetCategoriesParams = {}, opts?: OpOptions): Promise<Category[]> {
		const caps = await this.detectCapabilities(opts);
		return this.op('getCategories', categoriesToWire(params, caps), opts, parseCategories);
	}

	/** getFeedTree's nodes (level 5+). Use loadFeedTree for a tree on any server. */
	async getFeedTree(params: GetFeedTreeParams = {}, opts?: OpOptions): Promise<FeedTreeNode[]> {
		const caps = await this.require('getFeedTree', 'feedTree', 5, opts);
		return this.op('getFeedTree', feedTreeToWire(params, caps), opts, (c) =>
			parseFeedTree(c, caps)
		);
	}

	/** One normalised tree: from getFeedTree where the server has it, else from the lists. */
	async loadFeedTree(options: LoadFeedTreeOptions = {}): Promise<FeedTree> {
		const caps = await this.detectCapabilities(options);
		if (caps.feedTree && !options.forceFallback) {
			return treeFromNodes(await this.getFeedTree({ includeEmpty: true }, options));
		}
		const [all, topLevel, feeds, labels] = await Promise.all([
			this.getCategories({ includeEmpty: true }, options),
			this.getCategories({ includeEmpty: true, enableNested: true }, options),
			this.getFeeds({ catId: -4 }, options),
			caps.labels ? this.getLabels(undefined, options) : Promise.resolve([])
		]);
		const parentOf = new Map<number, number>();
		const top = new Set(topLevel.map((c) => c.id));
		if (all.some((c) => !top.has(c.id))) {
			// Nested categories: ask each real category for its child categories.
			const real = all.filter((c) => c.id > 0);
			const children = await Promise.all(
				real.map((c) => this.getFeeds({ catId: c.id, includeNested: true }, options))
			);
			real.forEach((c, i) => {
				for (const child of children[i] ?? []) if (child.isCategory) parentOf.set(child.id, c.id);
			});
		}
		return treeFromLists(all, feeds, parentOf, labels);
	}

	async getLabels(articleId?: number, opts?: OpOptions): Promise<LabelWithState[]> {
		const caps = await this.require('getLabels', 'labels', 1, opts);
		const params = articleId === undefined ? {} : { article_id: String(articleId) };
		return this.op('getLabels', params, opts, (c) => parseLabels(c, caps));
	}

	// ---------------------------------------------------------------- articles

	async getHeadlines(params: GetHeadlinesParams, opts?: OpOptions): Promise<HeadlinesResult> {
		const caps = await this.detectCapabilities(opts);
		const wire = headlinesToWire(params, caps);
		const result = await this.op('getHeadlines', wire, opts, (c) => parseHeadlines(c, caps));
		const sandboxed = wire.has_sandbox === true;
		this.sandboxedSid = sandboxed ? this.sid : undefined;
		for (const headline of result.headlines) headline.hasSandbox = sandboxed;
		this.noteImageProxy(result.headlines, wire.show_content === true);
		return result;
	}

	async getArticle(params: GetArticleParams, opts?: OpOptions): Promise<Article[]> {
		const caps = await this.detectCapabilities(opts);
		// Only a getHeadlines with has_sandbox that finished before this call, in the same session
		// (a re-login starts a session without the flag), sets the server's flag for it.
		const before = this.sid !== undefined && this.sandboxedSid === this.sid ? this.sid : undefined;
		const articles = await this.op('getArticle', articleToWire(params, caps), opts, (c) =>
			parseArticles(c, caps)
		);
		const sandboxed = before !== undefined && this.sid === before;
		for (const article of articles) article.hasSandbox = sandboxed;
		this.noteImageProxy(articles, true);
		return articles;
	}

	async updateArticle(params: UpdateArticleParams, opts?: OpOptions): Promise<UpdateResult> {
		if (params.field === ArticleField.Score) {
			await this.require('updateArticle', 'scoreField', 16, opts);
		} else if (params.field === ArticleField.Note) {
			await this.require('updateArticle', 'noteField', 1, opts);
		}
		return this.op('updateArticle', updateArticleToWire(params), opts, parseUpdated);
	}

	async catchupFeed(params: CatchupFeedParams, opts?: OpOptions): Promise<void> {
		const caps = await this.detectCapabilities(opts);
		await this.op('catchupFeed', catchupToWire(params, caps), opts, parseOk);
	}

	async setArticleLabel(params: SetArticleLabelParams, opts?: OpOptions): Promise<UpdateResult> {
		const caps = await this.require('setArticleLabel', 'labels', 1, opts);
		return this.op('setArticleLabel', setLabelToWire(params, caps), opts, parseUpdated);
	}

	async shareToPublished(params: ShareToPublishedParams, opts?: OpOptions): Promise<void> {
		const caps = await this.require('shareToPublished', 'shareToPublished', 4, opts);
		await this.op('shareToPublished', shareToWire(params, caps), opts, parseOk);
	}

	// ---------------------------------------------------------------- feeds

	/**
	 * Fetches a feed on the server now; the server answers once it is done. Unlike getHeadlines'
	 * `force_update` (skipped within two minutes of the last update), it always updates.
	 */
	async updateFeed(feedId: number, opts?: OpOptions): Promise<void> {
		await this.op('updateFeed', feedIdParam(feedId), opts, parseOk);
	}

	/** Never throws for the server's subscribe codes: they are in the result's `status`. */
	async subscribeToFeed(params: SubscribeToFeedParams, opts?: OpOptions): Promise<SubscribeResult> {
		await this.require('subscribeToFeed', 'subscribe', 5, opts);
		return this.op('subscribeToFeed', subscribeToWire(params), opts, parseSubscribe);
	}

	/** FEED_NOT_FOUND (or E_NOT_FOUND) when the feed does not exist. */
	async unsubscribeFeed(feedId: number, opts?: OpOptions): Promise<void> {
		await this.require('unsubscribeFeed', 'subscribe', 5, opts);
		await this.op('unsubscribeFeed', feedIdParam(feedId), opts, parseOk);
	}

	/** Level 19+: the feed's icon bytes. */
	async getFeedIcon(feedId: number, opts: OpOptions = {}): Promise<BinaryReply> {
		await this.require('getFeedIcon', 'feedIcon', 19, opts);
		const params = { id: String(Math.trunc(feedId)) };
		const sent = this.sid;
		try {
			return await this.transport.callBinary('getFeedIcon', params, { ...opts, sid: sent });
		} catch (error) {
			if (!(error instanceof ApiError) || error.code !== 'NOT_LOGGED_IN') throw error;
			await this.renewSession('getFeedIcon', sent, error, opts);
			return this.transport.callBinary('getFeedIcon', params, { ...opts, sid: this.sid });
		}
	}
}

export { LABELS_CATEGORY, SPECIAL_CATEGORY };
