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
