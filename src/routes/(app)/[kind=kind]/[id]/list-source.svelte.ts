/**
 * Which list the list screen shows and asking for it: the place (kind and id) with the reader's
 * search, the headline list opened for it once signed in, the rows picked for a bulk action tied
 * to it, the bodies asked again when the reader picks cards, and the head's Refresh. Made once by
 * the list's layout (+layout.svelte), while it is set up: its effects live as long as the screen.
 */
import { untrack } from 'svelte';
import type { SearchMode } from '$lib/api';
import { mute } from '$lib/mute/mute.svelte';
import { headlines, listQueryAt, type ListKind, type ListQuery } from '$lib/state/headlines.svelte';
import { selection } from '$lib/state/selection.svelte';
import { session } from '$lib/state/session.svelte';
import { settings } from '$lib/state/settings.svelte';
import { ui } from '$lib/state/ui.svelte';

export interface ListPlace {
	kind: ListKind;
	id: string;
}

export class ListSource {
	/** What the search box holds (not yet asked). */
	searchText = $state('');
	/** The search the list shows ('' for none). */
	activeSearch = $state('');
	activeSearchMode = $state<SearchMode>('this_feed');

	/** The list asked for: the place, the reader's view settings and the search. */
	readonly query: ListQuery = $derived.by(() => {
		const { kind, id } = this.place();
		return {
			...listQueryAt(kind, id, settings.values, session.capabilities),
			search: this.activeSearch,
			searchMode: this.activeSearchMode
		};
	});

	/** The query as one string: the list's scroll and the picked rows start anew when it changes. */
	readonly key: string = $derived(JSON.stringify(this.query));

	#lastPlace = '';

	constructor(private readonly place: () => ListPlace) {
		// A card shows the image tt-rss names only with the article's body: picking cards over a
		// list loaded without them asks again (state/headlines.svelte.ts `loadBodies`).
		$effect(() => {
			if (settings.values.density === 'cards') untrack(() => void headlines.loadBodies());
		});

		// A new feed starts without a search.
		$effect.pre(() => {
			const { kind, id } = this.place();
			const at = `${kind}/${id}`;
			if (at !== this.#lastPlace) {
				this.#lastPlace = at;
				this.activeSearch = '';
				this.searchText = '';
				mute.showHidden = false;
			}
		});

		$effect(() => {
			const query = this.query;
			if (!session.signedIn) return;
			void headlines.open(query);
		});

		// Rows picked for a bulk action belong to this list (and this search).
		$effect(() => selection.follow(this.key));

		$effect(() => {
			ui.refresh = () => headlines.refresh();
			return () => {
				ui.refresh = undefined;
			};
		});
	}
}
