/**
 * A headline list's search answered on this device (offline, or the server out of reach): the
 * local index, scoped as the server's search would be, a page at a time.
 */
import type { FeedTree, Headline } from '$lib/api';
import { searchOnDevice, type LocalResults } from '$lib/search/page';
import { FIRST_PAGE, type ListQuery } from './list-query';

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
