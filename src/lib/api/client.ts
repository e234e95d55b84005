/**
 * The tt-rss client: one typed method per op of the API, session handling (log in again once on
 * NOT_LOGGED_IN when credentials may be kept) and capability detection. The only code in the app
 * that talks to tt-rss; it has no DOM or Svelte dependency so the service worker can use it.
 */
import { deriveCapabilities, type Capabilities } from './capabilities';
import { clientError, serverError, sessionEndedError } from './error-make';
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
import {
	parseApiLevel,
	parseArticles,
	parseCategories,
	parseConfig,
	parseCounters,
	parseFeedTree,
	parseFeeds,
	parseHeadlines,
	parseLabels,
	parseLoggedIn,
	parseLogin,
	parseOk,
	parsePref,
	parseSubscribe,
	parseUnread,
	parseUpdated,
	parseVersionReply
} from './parse';
import {
	parseSharedSettings,
	PLUGIN_MISSING,
	SHARED_SETTINGS_OP,
	sharedSettingsUrl,
	type SharedItems,
	type SharedSettingsReply
} from './shared-settings';
import { Transport, type BinaryReply, type FetchLike } from './transport';
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
	LoginResult,
	ServerConfig,
	SubscribeResult,
	UpdateResult
} from './types';
import { isObject, parseReply } from './wire';

/** tt-rss credentials. Both are left out in single-user mode (the server forces `admin`). */
export interface Credentials {
	user?: string;
	password?: string;
}

/**
 * Gives the credentials for a silent re-login, or null when the user did not choose
 * "stay signed in". Called only when a session has ended.
 */
export type CredentialsProvider = () =>
	Credentials | null | undefined | Promise<Credentials | null | undefined>;

export interface TtrssClientOptions {
	/** The API endpoint, e.g. `/tt-rss/api/` on the app's own origin. */
	apiUrl: string;
	/** Injected for tests; defaults to the global `fetch`. */
	fetch?: FetchLike;
	/** Per-request timeout in ms (default 20 000). */
	timeoutMs?: number;
	/** A session id kept from earlier (e.g. in IndexedDB). */
	sessionId?: string;
	credentials?: CredentialsProvider;
	/** Capabilities kept from earlier, to skip detection when starting offline. */
	capabilities?: Capabilities;
	/** Told whenever the session id changes (login, re-login, logout, session ended). */
	onSessionChange?: (sessionId: string | undefined) => void;
	/**
	 * Asked before every request but a logout, and after a login: false means the sign-in this
	 * client was made for is over (signed out, or signed in again). Nothing more is sent then, and
	 * a session just opened is ended at once.
	 */
	stillSignedIn?: () => boolean | Promise<boolean>;
	/** Whether the server's Reader plugin signs this account's images, as learned before. */
	imageProxy?: boolean;
	/** Told when a reply shows the plugin signing images, or not, unlike what was known. */
	onImageProxy?: (on: boolean) => void;
}

export interface OpOptions {
	signal?: AbortSignal;
	timeoutMs?: number;
	/**
	 * Called after a re-login, before the op is sent again; throwing abandons the retry with that
	 * error (the replay's catch-up: a call judged fresh may no longer be, outbox/replay.ts).
	 */
	beforeRetry?: () => void;
}

export interface LoadFeedTreeOptions extends OpOptions {
	/** Use getCategories + getFeeds even where getFeedTree exists (tests, broken servers). */
	forceFallback?: boolean;
}

/** Ops that work without a session: they never trigger a re-login. */
const SESSIONLESS = new Set(['login', 'logout', 'isLoggedIn']);

export class TtrssClient {
	private readonly transport: Transport;
	/** The Reader plugin's shared-settings method, beside the API (made at its first use). */
	private sharedTransport: Transport | undefined;
	private readonly transportOptions: TtrssClientOptions;
	private readonly credentials: CredentialsProvider | undefined;
	private readonly onSessionChange: ((sessionId: string | undefined) => void) | undefined;
	private readonly stillSignedIn: (() => boolean | Promise<boolean>) | undefined;
	private sid: string | undefined;
	private caps: Capabilities | undefined;
	private capsPending: Promise<Capabilities> | undefined;
	private renewing: Promise<void> | undefined;
	/**
	 * The session whose last getHeadlines sent `has_sandbox: true`. The server keeps that flag in
	 * the session and sanitizes getArticle's bodies by it too.
	 */
	private sandboxedSid: string | undefined;
	private proxy: boolean | undefined;
	private readonly onImageProxy: ((on: boolean) => void) | undefined;

	constructor(options: TtrssClientOptions) {
		this.transport = new Transport(options);
		this.transportOptions = options;
		this.credentials = options.credentials;
		this.onSessionChange = options.onSessionChange;
		this.stillSignedIn = options.stillSignedIn;
		this.sid = options.sessionId;
		this.caps = options.capabilities;
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

	get sessionId(): string | undefined {
		return this.sid;
	}

	/** Known capabilities, or undefined before detection (see detectCapabilities). */
	get capabilities(): Capabilities | undefined {
		return this.caps;
	}

	private setSession(sid: string | undefined): void {
		if (sid === this.sid) return;
		this.sid = sid;
		this.onSessionChange?.(sid);
	}

	/**
	 * Sends an op and returns its raw content. Public for plugin ops; prefer the typed methods.
	 * On NOT_LOGGED_IN it logs in again once (when credentials are available) and retries.
	 */
	async call(
		op: string,
		params: Record<string, unknown> = {},
		opts: OpOptions = {}
	): Promise<unknown> {
		return this.send(this.transport, op, params, opts);
	}

	private async send(
		transport: Transport,
		op: string,
		params: Record<string, unknown>,
		opts: OpOptions
	): Promise<unknown> {
		// Not awaited when answered at once: a call's first request goes out as before.
		const signedIn = op === 'logout' || this.isSignedIn();
		if (signedIn !== true && !(await signedIn)) throw sessionEndedError(op);
		const sent = this.sid;
		try {
			return await transport.call(op, params, { ...opts, sid: sent });
		} catch (error) {
			if (!(error instanceof ApiError) || error.code !== 'NOT_LOGGED_IN' || SESSIONLESS.has(op)) {
				throw error;
			}
			await this.renewSession(op, sent, error, opts);
			await this.checkSignedIn(op);
			opts.beforeRetry?.();
			try {
				return await transport.call(op, params, { ...opts, sid: this.sid });
			} catch (retryError) {
				if (retryError instanceof ApiError && retryError.code === 'NOT_LOGGED_IN') {
					this.setSession(undefined);
					throw sessionEndedError(op, retryError);
				}
				throw retryError;
			}
		}
	}

	/** The sign-in is over: this client sends nothing more (the session is not its to end). */
	private async checkSignedIn(op: string): Promise<void> {
		if (!(await this.isSignedIn())) throw sessionEndedError(op);
	}

	/** Whether the sign-in is still on; a synchronous answer is taken without waiting. */
	private isSignedIn(): boolean | Promise<boolean> {
		return this.stillSignedIn ? this.stillSignedIn() : true;
	}

	/** Logs in again, once for all calls that found the same session dead. */
	private async renewSession(
		op: string,
		deadSid: string | undefined,
		cause: ApiError,
		opts: OpOptions
	): Promise<void> {
		if (this.sid !== undefined && this.sid !== deadSid) return; // another call renewed it
		this.renewing ??= (async () => {
			const credentials = this.credentials ? await this.credentials() : undefined;
			if (!credentials) {
				this.setSession(undefined);
				throw sessionEndedError(op, cause);
			}
			try {
				await this.login(credentials, opts);
			} catch (error) {
				// A changed password ends the session for good; offline etc. stay as they are.
				if (error instanceof ApiError && error.code === 'LOGIN_ERROR') {
					this.setSession(undefined);
					throw sessionEndedError(op, error);
				}
				throw error;
			}
		})().finally(() => {
			this.renewing = undefined;
		});
		await this.renewing;
	}

	private async op<T>(
		op: string,
		params: Record<string, unknown>,
		opts: OpOptions | undefined,
		parse: (content: unknown) => T
	): Promise<T> {
		const content = await this.call(op, params, opts);
		try {
			return parseReply(op, content, parse);
		} catch (error) {
			return failWithWords(error); // a reply that does not fit: its words may not be in yet
		}
	}

	private async require(
		op: string,
		flag: keyof Capabilities,
		level: number,
		opts?: OpOptions
	): Promise<Capabilities> {
		const caps = await this.detectCapabilities(opts);
		if (!caps[flag]) {
			return failWithWords(clientError(op, 'UNSUPPORTED', { details: { needsApiLevel: level } }));
		}
		return caps;
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

	// ---------------------------------------------------------------- session

	/** Logs in; without user and password for single-user mode. Keeps the session id. */
	async login(credentials: Credentials = {}, opts: OpOptions = {}): Promise<LoginResult> {
		const params: Record<string, unknown> = {};
		if (credentials.user !== undefined) params.user = credentials.user;
		if (credentials.password !== undefined) params.password = credentials.password;
		await this.checkSignedIn('login');
		const content = await this.transport.call('login', params, { ...opts, phase: 'login' });
		const result = parseReply('login', content, parseLogin);
		if (!(await this.isSignedIn())) {
			// Signed out while the login was on its way: the session it opened is nobody's.
			await this.transport
				.call('logout', {}, { ...opts, sid: result.sessionId })
				.catch(() => undefined);
			throw sessionEndedError('login');
		}
		this.setSession(result.sessionId);
		// Level 5+ needs no version to know its capabilities; below, detect lazily.
		if (result.apiLevel !== undefined && result.apiLevel >= 5) {
			this.caps = deriveCapabilities(result.apiLevel);
		} else {
			this.caps = undefined;
		}
		return result;
	}

	/** Ends the session; a session the server already forgot counts as logged out. */
	async logout(opts?: OpOptions): Promise<void> {
		try {
			await this.call('logout', {}, opts);
		} catch (error) {
			if (!(error instanceof ApiError && error.code === 'NOT_LOGGED_IN')) throw error;
		} finally {
			this.setSession(undefined);
		}
	}

	async isLoggedIn(opts?: OpOptions): Promise<boolean> {
		if (this.sid === undefined) return false;
		return this.op('isLoggedIn', {}, opts, parseLoggedIn);
	}

	// ---------------------------------------------------------------- server facts

	/** The API level; a server error (e.g. UNKNOWN_METHOD on very old hosts) means level 0. */
	async getApiLevel(opts?: OpOptions): Promise<number> {
		try {
			return await this.op('getApiLevel', {}, opts, parseApiLevel);
		} catch (error) {
			if (
				error instanceof ApiError &&
				error.kind === 'server' &&
				error.code !== 'NOT_LOGGED_IN' &&
				error.code !== 'API_DISABLED'
			) {
				return 0;
			}
			throw error;
		}
	}

	async getVersion(opts?: OpOptions): Promise<string> {
		return this.op('getVersion', {}, opts, parseVersionReply);
	}

	/** Detects (once per session) and returns what the server can do. */
	async detectCapabilities(opts?: OpOptions): Promise<Capabilities> {
		if (this.caps) return this.caps;
		this.capsPending ??= (async () => {
			const level = await this.getApiLevel(opts);
			// Only hosts below level 5 need the version (label ids before 1.7.5).
			const version = level < 5 ? await this.getVersion(opts).catch(() => undefined) : undefined;
			this.caps = deriveCapabilities(level, version);
			return this.caps;
		})().finally(() => {
			this.capsPending = undefined;
		});
		return this.capsPending;
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
