/**
 * Where a search looks: the open list, the open feed's category, or every feed — for the server
 * and this device alike (the device's side, told from the cached articles: local-scope.ts).
 */
import { SPECIAL_FEED, type FeedTree } from '$lib/api';
import { categoryOfFeed } from '$lib/tree/walk';

/** The parts of the open list that decide the scope (state/headlines.svelte.ts `ListQuery`). */
export interface ScopeQuery {
	kind: 'feed' | 'cat' | 'tag';
	id: string;
	viewMode: string;
	orderBy: string;
	searchMode: string;
}

/**
 * The list a search looks through, for the server and this device alike: the open list, the open
 * feed's category ("this_cat"), or All articles ("all_feeds"). Servers do not read `search_mode`
 * (the 2021 one ignores it), so the scope is sent as the feed or category searched.
 */
export function searchTarget(
	query: Pick<ScopeQuery, 'kind' | 'id' | 'searchMode'>,
	tree: FeedTree | undefined
): { kind: 'feed' | 'cat' | 'tag'; id: string } {
	if (query.searchMode === 'all_feeds') return { kind: 'feed', id: String(SPECIAL_FEED.all) };
	if (query.searchMode === 'this_cat' && query.kind === 'feed') {
		const catId = categoryOfFeed(tree, Number(query.id));
		if (catId !== undefined) return { kind: 'cat', id: String(catId) };
	}
	return { kind: query.kind, id: query.id };
}
