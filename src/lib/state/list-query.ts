/**
 * What the headline pane shows, as data: the list's query, its key in the cache, and the one
 * getHeadlines request a page of it makes (its search scope, view mode and order). Pure but for
 * the per-list view and order the reader chose (feed-prefs.svelte.ts).
 */
import type {
	Capabilities,
	FeedId,
	FeedTree,
	GetHeadlinesParams,
	Headline,
	SearchMode,
	ViewMode
} from '$lib/api';
import type { ListKey } from '$lib/cache/cache-reads';
import { searchTarget } from '$lib/search/scope';
import { feedPrefs } from './feed-prefs.svelte';
import type { SettingsValues } from './settings.svelte';
import type { ListKind } from '../../params/kind';

/** Named once, by the route's matcher. */
export type { ListKind } from '../../params/kind';

/** What the headline pane shows: one feed, category or tag, filtered and sorted. */
export interface ListQuery {
	kind: ListKind;
	id: string;
	viewMode: ViewMode;
	/** '' = the server's default order. */
	orderBy: string;
	search: string;
	searchMode: SearchMode;
}

/** The fields an action can change on an article, applied to every copy the app shows. */
export type ArticlePatch = Partial<
	Pick<Headline, 'unread' | 'marked' | 'published' | 'note' | 'labels'>
>;

export const EXCERPT_LENGTH = 200;
/**
 * The first page of a list with nothing on screen yet: several screens of rows, a quarter of the
 * server's usual page. On the test bed it answers in about half the time (~30 ms, 35 KB instead
 * of ~70 ms, 124 KB), and the first headline waits for it; the rest follows as the reader scrolls.
 */
export const FIRST_PAGE = 50;

export function feedIdOf(query: Pick<ListQuery, 'kind' | 'id'>): FeedId {
	return query.kind === 'tag' ? query.id : Number(query.id);
}

/**
 * The list a route shows before any search: in the view mode and order chosen for that list
 * (feed-prefs.svelte.ts), else in the reader's defaults (`values`).
 */
export function listQueryFor(
	kind: ListKind,
	id: string,
	defaults: Pick<SettingsValues, 'viewMode' | 'sortOrder'>
): ListQuery {
	const values = feedPrefs.viewOf(kind, id, defaults);
	return {
		kind,
		id,
		viewMode: values.viewMode,
		orderBy: values.sortOrder === 'default' ? '' : values.sortOrder,
		search: '',
		searchMode: 'this_feed'
	};
}

/**
 * The list a place's address opens, before any search: `listQueryFor`, in the server's default
 * order where the server cannot sort (below order_by's level it answers that order: the list is
 * cached and shown as that). The one rule for the list's screen and for the sign-in, which asks
 * for its rows before that screen is built.
 */
export function listQueryAt(
	kind: ListKind,
	id: string,
	defaults: Pick<SettingsValues, 'viewMode' | 'sortOrder'>,
	caps: Pick<Capabilities, 'orderBy'> | undefined
): ListQuery {
	const query = listQueryFor(kind, id, defaults);
	return caps?.orderBy === false ? { ...query, orderBy: '' } : query;
}

export function listKey(query: ListQuery): ListKey {
	return {
		feedId: feedIdOf(query),
		isCat: query.kind === 'cat',
		viewMode: query.viewMode,
		orderBy: query.orderBy,
		search: query.search ? `${query.searchMode}:${query.search}` : ''
	};
}

/**
 * What a list asks the server for: a search's scope is sent as the feed or category it looks
 * through (search/scope.ts), never as `search_mode`, which the 2021 server ignores.
 */
export const targetOf = (
	query: ListQuery,
	tree: FeedTree | undefined
): Pick<ListQuery, 'kind' | 'id'> => (query.search ? searchTarget(query, tree) : query);

export const sameQuery = (a: ListQuery | undefined, b: ListQuery): boolean =>
	!!a && JSON.stringify(a) === JSON.stringify(b);

/** Where a page of a list starts and how long it is, and what a refresh asks with it. */
export interface HeadlinesPage {
	skip: number;
	limit: number;
	sinceId?: number | undefined;
	forceUpdate?: boolean | undefined;
	checkFirstId?: number | undefined;
}

/** The getHeadlines parameters of one page of the list. */
export function headlinesParams(
	query: ListQuery,
	page: HeadlinesPage,
	caps: { includeHeader: boolean },
	tree: FeedTree | undefined,
	/**
	 * The bodies too: tt-rss works out an article's image (`flavor_image`) only when it sends the
	 * body, so the cards density, which shows that image, asks for them.
	 */
	withContent = false
): GetHeadlinesParams {
	const target = targetOf(query, tree);
	return {
		feedId: feedIdOf(target),
		isCat: target.kind === 'cat',
		includeNested: target.kind === 'cat',
		limit: page.limit,
		skip: page.skip,
		sinceId: page.sinceId,
		viewMode: query.viewMode,
		orderBy: query.orderBy || undefined,
		showExcerpt: true,
		showContent: withContent || undefined,
		excerptLength: EXCERPT_LENGTH,
		includeAttachments: true,
		hasSandbox: true,
		sanitize: true,
		forceUpdate: page.forceUpdate,
		search: query.search || undefined,
		includeHeader: caps.includeHeader,
		checkFirstId: page.skip > 0 ? page.checkFirstId : undefined
	};
}
