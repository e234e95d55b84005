/**
 * What an OPML import will do, decided before anything is sent: each feed's category on this
 * server (matched by name: the API cannot create categories), the file's categories this server
 * lacks, and the feeds already subscribed (skipped, never sent again).
 */
import type { OpmlFeed } from './opml';

/** A category of this server, as the feed tree lists it. */
export interface ServerCategory {
	id: number;
	title: string;
}

export const UNCATEGORIZED = 0;

export interface PlannedFeed {
	title: string;
	xmlUrl: string;
	/** The innermost category the file puts it in; undefined when none. */
	wanted: string | undefined;
	/** The category it will go to on this server (0: Uncategorized). */
	categoryId: number;
	/** `wanted` does not exist on this server. */
	missing: boolean;
	alreadySubscribed: boolean;
}

export interface ImportPlan {
	feeds: PlannedFeed[];
	/** The file's category names this server lacks, in file order. */
	missing: string[];
}

/** tt-rss compares category titles as stored; readers type them loosely. */
export function categoryKey(name: string): string {
	return name.normalize('NFC').trim().replace(/\s+/g, ' ').toLocaleLowerCase();
}

/** Feed addresses compared as URLs (`HTTP://Host/x` and `http://host/x` are one feed). */
export function feedKey(url: string): string {
	try {
		return new URL(url.trim()).href;
	} catch {
		return url.trim();
	}
}

export function planImport(
	feeds: readonly OpmlFeed[],
	categories: readonly ServerCategory[],
	subscribedUrls: Iterable<string>
): ImportPlan {
	const byName = new Map<string, number>();
	for (const category of categories) {
		if (category.id > 0 && !byName.has(categoryKey(category.title))) {
			byName.set(categoryKey(category.title), category.id);
		}
	}
	byName.set(categoryKey('Uncategorized'), UNCATEGORIZED);
	const subscribed = new Set([...subscribedUrls].map(feedKey));
	const missing: string[] = [];
	const planned = feeds.map((feed): PlannedFeed => {
		const wanted = feed.categoryPath.at(-1);
		const id = wanted === undefined ? UNCATEGORIZED : byName.get(categoryKey(wanted));
		if (wanted !== undefined && id === undefined && !missing.includes(wanted)) missing.push(wanted);
		return {
			title: feed.title,
			xmlUrl: feed.xmlUrl,
			wanted,
			categoryId: id ?? UNCATEGORIZED,
			missing: wanted !== undefined && id === undefined,
			alreadySubscribed: subscribed.has(feedKey(feed.xmlUrl))
		};
	});
	return { feeds: planned, missing };
}

/** The plan with the reader's choice of an existing category for each missing one. */
export function chooseForMissing(
	plan: ImportPlan,
	choices: ReadonlyMap<string, number>
): PlannedFeed[] {
	return plan.feeds.map((feed) =>
		feed.missing && feed.wanted !== undefined
			? { ...feed, categoryId: choices.get(feed.wanted) ?? UNCATEGORIZED }
			: feed
	);
}

/** Feeds grouped by the category they will go to, groups in order of first appearance. */
export function groupByCategory(feeds: readonly PlannedFeed[]): [number, PlannedFeed[]][] {
	const groups = new Map<number, PlannedFeed[]>();
	for (const feed of feeds)
		groups.set(feed.categoryId, [...(groups.get(feed.categoryId) ?? []), feed]);
	return [...groups.entries()];
}
