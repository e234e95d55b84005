import {
	DEVICE_FEED,
	feedIconUrl,
	readerText,
	type ArticleBase,
	type Counters,
	type FeedTree,
	type ServerConfig,
	type TreeCategory,
	type TreeFeed
} from '$lib/api';
import { afterFirstScreen, takeEarlyTree } from '$lib/boot/early-reads';
import { cachedTree } from '$lib/cache/cache-reads';
import { storeTree } from './cache-writes';
import { withQueuedCounters } from '$lib/outbox/outbox';
import {
	afterCatchup,
	afterRead,
	countsFrom,
	isToday,
	NO_COUNTS,
	type CatchupScope,
	type UnreadCounts
} from '$lib/counters/counts';
import { categoriesWithDepth, titlesOf } from '$lib/tree/walk';
import { arrangeTree, orderedSpecial } from '$lib/tree/special';
import { m } from '$lib/i18n/m';
import { specialFeeds } from './special-feeds.svelte';
import { todayUnread } from './device-search';
import { fetchedIcon, resetTreeIcons } from './tree-icons.svelte';
import { session } from './session.svelte';
import { onAccountEvent } from '$lib/db/account-events';

/** One place a reader can open: a feed (special and label feeds too) or a category. */
export interface TreePlace {
	kind: 'feed' | 'cat';
	id: number;
	title: string;
}

/** The feed tree and its unread counters (one getCounters call for all of them). */
class TreeState {
	#tree = $state.raw<FeedTree | undefined>();
	#counts = $state.raw<UnreadCounts>(NO_COUNTS);
	#config = $state.raw<ServerConfig | undefined>();
	#error = $state<string | undefined>();
	#loading = $state(false);
	#pending: Promise<void> | undefined;
	/** Bumped by every local change, so a counters reply asked for before it cannot undo it. */
	#localChanges = 0;

	/** Today's unread articles kept on this device (its counter is the cache's, never the server's). */
	#today = $state(0);

	/** The tree as the reader arranged it: Today among the special feeds, in their chosen order. */
	#arranged = $derived(
		this.#tree ? arrangeTree(this.#tree, m.feed_today(), specialFeeds.choice) : undefined
	);

	/** Feed id → title, for headlines of feeds the server did not name (hidden special feeds too). */
	#titles = $derived(
		titlesOf(
			this.#tree && {
				...this.#tree,
				special: orderedSpecial(this.#tree.special, m.feed_today(), specialFeeds.choice)
			}
		)
	);

	get tree(): FeedTree | undefined {
		return this.#arranged;
	}

	/** Every special feed in the reader's order, hidden ones too (Settings → Special feeds). */
	get allSpecial(): TreeFeed[] {
		const tree = this.#tree;
		return tree ? orderedSpecial(tree.special, m.feed_today(), specialFeeds.choice) : [];
	}

	get counts(): UnreadCounts {
		return this.#counts;
	}

	get config(): ServerConfig | undefined {
		return this.#config;
	}

	get error(): string | undefined {
		return this.#error;
	}

	get loading(): boolean {
		return this.#loading;
	}

	unread(feedId: number, isCat = false): number {
		if (!isCat && feedId === DEVICE_FEED.today) return this.#today;
		const map = isCat ? this.#counts.categories : this.#counts.feeds;
		return map.get(feedId) ?? 0;
	}

	title(kind: 'feed' | 'cat', id: number): string | undefined {
		return this.#titles.get(`${kind}:${id}`);
	}

	/** An article's feed as the tree names it, else as the article does (shared: no feed). */
	feedTitleOf(row: { feedId: number | null; feedTitle: string | undefined }): string | undefined {
		return row.feedId === null ? row.feedTitle : (this.title('feed', row.feedId) ?? row.feedTitle);
	}

	/** The feed's icon on the server (api/feed-icons.ts: both servers' forms, on the API's origin). */
	iconUrl(feedId: number): string | undefined {
		const iconsUrl = this.#config?.iconsUrl;
		if (!iconsUrl || !session.signedIn) return undefined;
		return fetchedIcon(feedId) ?? feedIconUrl(iconsUrl, session.apiUrl, feedId);
	}

	/** Every feed and category in tree order, for "next/previous feed". */
	places(hideEmpty: boolean): TreePlace[] {
		const tree = this.#arranged;
		if (!tree) return [];
		const out: TreePlace[] = [];
		const keep = (kind: 'feed' | 'cat', id: number): boolean =>
			!hideEmpty || this.unread(id, kind === 'cat') > 0;
		for (const f of tree.special) if (keep('feed', f.id)) out.push({ kind: 'feed', ...f });
		const walk = (categories: readonly TreeCategory[]): void => {
			for (const c of categories) {
				if (keep('cat', c.id)) out.push({ kind: 'cat', id: c.id, title: c.title });
				walk(c.categories);
				for (const f of c.feeds) if (keep('feed', f.id)) out.push({ kind: 'feed', ...f });
			}
		};
		walk(tree.categories);
		for (const f of tree.feeds) if (keep('feed', f.id)) out.push({ kind: 'feed', ...f });
		for (const f of tree.labels) if (keep('feed', f.id)) out.push({ kind: 'feed', ...f });
		return out.map(({ kind, id, title }) => ({ kind, id, title }));
	}

	/** Real categories, flattened with their depth, for the subscribe form. */
	categories(): { id: number; title: string; depth: number }[] {
		return categoriesWithDepth(this.#tree);
	}

	/** Cache first, then the server; the fresh copy goes back to the cache. */
	load(): Promise<void> {
		this.#pending ??= this.#load().finally(() => {
			this.#pending = undefined;
		});
		return this.#pending;
	}

	async #load(): Promise<void> {
		const changes = this.#localChanges;
		this.#loading = true;
		try {
			const cachedRead = this.#tree ? undefined : (takeEarlyTree() ?? cachedTree());
			// A start paints its headlines first: the tree's cached copy and its refresh follow.
			await afterFirstScreen();
			const cached = await cachedRead;
			void specialFeeds.load();
			if (cached && !this.#tree) {
				this.#tree = cached.tree;
				if (cached.counters) this.#counts = countsFrom(cached.counters);
			}
			void this.countToday();
			// Icons and custom sorts offline: the configuration the last full sync kept.
			if (!this.#config && session.account)
				// Loaded here, not with the first screen: this waits for the network anyway.
				this.#config = await import('$lib/sync/state')
					.then(({ loadSyncState }) => loadSyncState(session.account ?? ''))
					.then((state) => state.config)
					.catch(() => undefined);
			const client = await session.api();
			const askedAt = Date.now();
			const [tree, answered, config] = await Promise.all([
				client.loadFeedTree(),
				client.getCounters(),
				// Icons and custom sort orders only; a server without getConfig still works.
				this.#config ? Promise.resolve(this.#config) : client.getConfig().catch(() => undefined)
			]);
			// A catch-up still queued (or sent after the ask) keeps its counters at zero.
			const counters = await withQueuedCounters(answered, tree, askedAt);
			this.#tree = tree;
			if (changes === this.#localChanges) this.#counts = countsFrom(counters);
			this.#config = config;
			this.#error = undefined;
			await storeTree(tree, counters);
		} catch (error) {
			this.#error = errorMessage(error);
		} finally {
			this.#loading = false;
		}
	}

	async refreshCounters(): Promise<void> {
		const changes = this.#localChanges;
		try {
			const askedAt = Date.now();
			const answered = await (await session.api()).getCounters();
			const counters = await withQueuedCounters(answered, this.#tree, askedAt);
			if (changes === this.#localChanges) this.#counts = countsFrom(counters);
			if (this.#tree) await storeTree(this.#tree, counters);
			await this.countToday();
		} catch (error) {
			this.#error = errorMessage(error);
		}
	}

	/** A mark to pass to `applyCounters` for counters asked for now. */
	changeMark(): number {
		return this.#localChanges;
	}

	/** Counters read elsewhere (a sync), unless a local change came after they were asked for. */
	async applyCounters(answered: Counters, mark: number): Promise<void> {
		if (mark !== this.#localChanges) return;
		const counters = await withQueuedCounters(answered, this.#tree);
		if (mark !== this.#localChanges) return;
		this.#counts = countsFrom(counters);
		if (this.#tree) await storeTree(this.#tree, counters);
		await this.countToday();
	}

	/** Counts Today's unread articles again from the cache (after a sync, a load, a new day). */
	async countToday(): Promise<void> {
		const changes = this.#localChanges;
		const count = await todayUnread(this.#tree).catch(() => undefined);
		if (count !== undefined && changes === this.#localChanges) this.#today = count;
	}

	/**
	 * Applies an article's read change at once, before the server confirms it (the one counter
	 * model, as the cache applies it: counters/counts.ts).
	 */
	adjust(article: Pick<ArticleBase, 'feedId' | 'updated' | 'score'>, delta: number): void {
		if (article.feedId === null || delta === 0) return;
		this.#localChanges++;
		this.#counts = afterRead(this.#counts, this.#tree, article, delta, Date.now());
		if (isToday(article, Date.now())) this.#today = Math.max(0, this.#today + delta);
	}

	/** Zeroes what a catch-up covers, once the rows it marked have been adjusted. */
	caughtUp(scope: CatchupScope): void {
		this.#localChanges++;
		this.#counts = afterCatchup(this.#counts, this.#tree, scope);
	}

	reset(): void {
		this.#tree = undefined;
		this.#counts = NO_COUNTS;
		this.#today = 0;
		this.#config = undefined;
		this.#error = undefined;
		resetTreeIcons();
	}
}

export function errorMessage(error: unknown): string {
	return readerText(error, m.failure_feeds());
}

export const treeState = new TreeState();
onAccountEvent(() => treeState.reset());
