/**
 * The headline list's head (HeadlineToolbar.svelte and its menus): which catch-ups and search
 * scopes it offers and what the catch-up's Undo says. Pure, so the choices are tested apart.
 */
import type { CatchupMode, SearchMode } from '$lib/api';
import type { ListKind } from '$lib/state/headlines.svelte';
import { m } from '$lib/i18n/m';

export interface Choice<Value extends string> {
	value: Value;
	label: string;
}

/** "Mark read": everything, and by age where the server takes a mode (capabilities.catchupMode). */
export function catchupChoices(byAge: boolean | undefined): Choice<CatchupMode>[] {
	const all: Choice<CatchupMode> = { value: 'all', label: m.catchup_all() };
	if (!byAge) return [all];
	return [
		all,
		{ value: '1day', label: m.catchup_1day() },
		{ value: '1week', label: m.catchup_1week() },
		{ value: '2week', label: m.catchup_2week() }
	];
}

/**
 * What "Search in this category" calls the open feed's category: its title, else Uncategorized
 * (id 0) or "this category"; undefined for a list without a category of its own.
 */
export function categoryScopeTitle(
	categoryId: number | undefined,
	title: string | undefined
): string | undefined {
	if (categoryId === undefined) return undefined;
	return title ?? (categoryId === 0 ? m.search_uncategorized() : m.search_this_category_lower());
}

/** Where a search may look: this list, its feed's category when it has one, every feed. */
export function searchScopes(
	kind: ListKind,
	categoryTitle: string | undefined
): Choice<SearchMode>[] {
	return [
		{
			value: 'this_feed',
			label: kind === 'cat' ? m.search_this_category() : m.search_this_feed()
		},
		...(categoryTitle === undefined
			? []
			: [{ value: 'this_cat' as const, label: m.search_category({ title: categoryTitle }) }]),
		{ value: 'all_feeds', label: m.search_all_feeds() }
	];
}

/** The Undo toast's text for a catch-up: with a search in force only its matches were marked. */
export function catchupText(activeSearch: string, title: string): string {
	return activeSearch
		? m.toast_marked_search_read({ search: activeSearch })
		: m.toast_marked_list_read({ title });
}
