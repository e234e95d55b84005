/**
 * The feed ids tt-rss gives a meaning of its own (docs: ttrss-server-notes "Ids"), named once so the
 * app, the cache and the outbox never spell them as bare numbers. Label feeds (below -1024) and
 * their conversion live in capabilities.ts (`isLabelFeedId`), beside the legacy numbering.
 */
export const SPECIAL_FEED = {
	archived: 0,
	starred: -1,
	published: -2,
	fresh: -3,
	all: -4,
	recentlyRead: -6
} as const;

/**
 * Feeds only this device has, made from its cache and never asked of the server: ids tt-rss never
 * gives (it uses 0 to -6; plugin feeds start at -129, labels below -1024).
 */
export const DEVICE_FEED = {
	/** Articles dated since the start of the reader's local day (search/local-scope.ts). */
	today: -100
} as const;

/** Whether a feed id is one of this device's own (served from the cache, online too). */
export function isDeviceFeed(id: number | string): boolean {
	return id === DEVICE_FEED.today;
}

/** Category ids the server uses for its virtual groups. */
export const SPECIAL_CATEGORY = -1;
export const LABELS_CATEGORY = -2;
