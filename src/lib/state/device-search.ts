/**
 * A headline list answered on this device: a search (offline, the server out of reach) from the
 * local index, and the device's own feeds (Today) from the cached articles — both through the
 * one rule of which cached articles a feed id covers (search/local-scope.ts `localScope`).
 */
import { DEVICE_FEED, isDeviceFeed, type FeedTree, type Headline } from '$lib/api';
import { cachedMatching } from '$lib/cache/cache-reads';
import { searchOnDevice, type LocalResults } from '$lib/search/page-search';
import { FIRST_PAGE, type ListQuery } from './list-query';

/** Why a search was answered on this device: the server out of reach, or a device feed's list. */
export type OnDeviceReason = 'unreachable' | 'device-feed';

/** A list of a feed only this device has (Today): never asked of the server. */
export const isDeviceList = (query: ListQuery): boolean =>
	query.kind === 'feed' && isDeviceFeed(Number(query.id));

/** A list read on this device, as it goes on screen. */
export interface DeviceRead {
	rows: Headline[];
	complete: boolean;
	/** A search's results, paged on (`next`) as the reader nears the end. */
	results?: LocalResults;
	/** Why a search was answered here (the list's banner says it). */
	reason?: OnDeviceReason;
}

/** The open list read on this device: its search (the first page), or a device feed's rows. */
export async function readOnDevice(
	query: ListQuery,
	tree: FeedTree | undefined
): Promise<DeviceRead> {
	if (!query.search) return { rows: await deviceFeedRows(query, tree), complete: true };
	const { results, rows } = await firstOnDevice(query, tree);
	const reason = isDeviceList(query) ? 'device-feed' : 'unreachable';
	return { rows, complete: results.done, results, reason };
}

/** The open search's results on this device and their first page. */
export async function firstOnDevice(
	query: ListQuery,
	tree: FeedTree | undefined
): Promise<{ results: LocalResults; rows: Headline[] }> {
	// The device's scope rules load with the first search here, not with the first screen.
	const { localScope } = await import('$lib/search/local-scope');
	const results = await searchOnDevice({ query: query.search, ...localScope(query, tree) });
	return { results, rows: await results.next(FIRST_PAGE) };
}

/** A device feed's whole list (Today), from the cached articles, in the list's mode and order. */
export async function deviceFeedRows(
	query: ListQuery,
	tree: FeedTree | undefined,
	now = Date.now()
): Promise<Headline[]> {
	const { localScope } = await import('$lib/search/local-scope');
	const { keep, feeds, oldestFirst, updatedSince } = localScope(query, tree, now);
	return cachedMatching({ keep, feeds, oldestFirst, updatedSince });
}

/** Today's unread articles kept on this device: its counter, online and offline alike. */
export async function todayUnread(tree: FeedTree | undefined, now = Date.now()): Promise<number> {
	const rows = await deviceFeedRows(
		{
			kind: 'feed',
			id: String(DEVICE_FEED.today),
			viewMode: 'unread',
			orderBy: '',
			search: '',
			searchMode: 'this_feed'
		},
		tree,
		now
	);
	return rows.length;
}
