/**
 * OPML export: the reader's whole subscription tree as tt-rss has it. getFeedTree (or its
 * fallback) gives the nesting and titles but no addresses; getFeeds gives each feed's address;
 * from level 21 a headline of each feed carries the feed's site address.
 */
import type { Feed, FeedTree, TreeCategory, TreeFeed, TtrssClient } from '$lib/api';
import { writeOpml, type OpmlNode } from './opml';

/** The subscription tree as OPML nodes. Feeds without a known address are left out. */
export function subscriptionNodes(
	tree: FeedTree,
	feeds: readonly Feed[],
	siteUrls: ReadonlyMap<number, string> = new Map()
): OpmlNode[] {
	const urlOf = new Map<number, string>();
	for (const feed of feeds) if (!feed.isCategory && feed.feedUrl) urlOf.set(feed.id, feed.feedUrl);
	const feedNode = (feed: TreeFeed): OpmlNode[] => {
		const xmlUrl = urlOf.get(feed.id);
		return xmlUrl
			? [{ kind: 'feed', title: feed.title, xmlUrl, htmlUrl: siteUrls.get(feed.id) }]
			: [];
	};
	const categoryNode = (category: TreeCategory): OpmlNode => ({
		kind: 'category',
		title: category.title,
		children: [...category.categories.map(categoryNode), ...category.feeds.flatMap(feedNode)]
	});
	const nodes: OpmlNode[] = [];
	for (const category of tree.categories) {
		// Uncategorized is no category in OPML: its feeds stand at the top.
		if (category.id === 0) nodes.push(...category.feeds.flatMap(feedNode));
		else nodes.push(categoryNode(category));
	}
	nodes.push(...tree.feeds.flatMap(feedNode));
	return nodes;
}

/** The server's host name (and port), from an API address that may be relative to the page. */
export function serverHost(apiUrl: string): string {
	const base = typeof location === 'undefined' ? 'http://localhost/' : location.href;
	try {
		return new URL(apiUrl, base).host;
	} catch {
		return 'server';
	}
}

/** `tt-rss-example.org-2026-11-23.opml`: which server, and when. */
export function exportFileName(apiUrl: string, now: Date): string {
	const safeHost = serverHost(apiUrl).replace(/[^a-z0-9.-]+/gi, '-');
	return `tt-rss-${safeHost}-${now.toISOString().slice(0, 10)}.opml`;
}

/** Site addresses (level 21+): one headline per feed, a few feeds at a time. */
async function siteUrlsOf(client: TtrssClient, feedIds: number[]): Promise<Map<number, string>> {
	const found = new Map<number, string>();
	const queue = [...feedIds];
	const worker = async (): Promise<void> => {
		for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
			const { headlines } = await client.getHeadlines({ feedId: id, limit: 1 });
			const site = headlines[0]?.siteUrl;
			if (site) found.set(id, site);
		}
	};
	await Promise.all(Array.from({ length: Math.min(4, queue.length) }, worker));
	return found;
}

export interface OpmlExport {
	fileName: string;
	text: string;
	feedCount: number;
}

/** Asks the server for the tree and addresses and writes the file's text. */
export async function exportSubscriptions(
	client: TtrssClient,
	apiUrl: string,
	now = new Date()
): Promise<OpmlExport> {
	const [tree, feeds] = await Promise.all([client.loadFeedTree(), client.getFeeds({ catId: -4 })]);
	const caps = await client.detectCapabilities();
	const real = feeds.filter((f) => !f.isCategory && f.id > 0);
	const siteUrls = caps.siteUrl
		? await siteUrlsOf(
				client,
				real.map((f) => f.id)
			)
		: new Map();
	const outlines = subscriptionNodes(tree, feeds, siteUrls);
	return {
		fileName: exportFileName(apiUrl, now),
		text: writeOpml({
			title: `tt-rss subscriptions on ${serverHost(apiUrl)}`,
			created: now,
			outlines
		}),
		feedCount: real.length
	};
}
