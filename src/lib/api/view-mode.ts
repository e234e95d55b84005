/**
 * What each of tt-rss's view modes keeps, as the server decides it (`queryFeedHeadlines` in its
 * classes/feeds.php), for the lists the app answers without the server: offline lists made from
 * cached articles (cache/) and searches on the device (search/scope.ts). One rule per mode, here,
 * so both show what the server would.
 */
import { SPECIAL_FEED } from './feed-ids';
import type { FeedId } from './params';
import type { Headline } from './types';

/** The fields a view mode looks at. */
export type ViewModeRow = Pick<Headline, 'unread' | 'marked' | 'published' | 'note'>;

export interface ViewModeContext {
	/** The list's feed: Recently read keeps read articles in "unread", Starred ignores "adaptive". */
	feedId?: FeedId;
	/** A search shows every match in "adaptive". */
	searching?: boolean;
	/** Whether the list has unread articles ("adaptive" then shows only those). */
	anyUnread?: boolean;
}

/** The rows `mode` keeps; undefined when it keeps them all. */
export function viewModeKeeps(
	mode: string,
	context: ViewModeContext = {}
): ((row: ViewModeRow) => boolean) | undefined {
	const unread = (row: ViewModeRow): boolean => row.unread;
	switch (mode) {
		case 'unread':
			return context.feedId === SPECIAL_FEED.recentlyRead ? undefined : unread;
		case 'adaptive':
			if (context.searching || context.feedId === SPECIAL_FEED.starred) return undefined;
			return context.anyUnread ? unread : undefined;
		case 'marked':
			return (row) => row.marked;
		case 'published':
			return (row) => row.published;
		case 'has_note':
			// The server: `note IS NOT NULL AND note != ''`.
			return (row) => !!row.note;
		default:
			// all_articles, and "updated", which the server's query does not filter by.
			return undefined;
	}
}
