/**
 * What the list's rows do when the reader acts on them: the star, "mark above/below as read", a
 * row picked for a bulk action (one, or a range), an open of a feed set to open on its own site,
 * and the rows scrolled past (read on scroll, if the reader asked for it). The actions themselves
 * are the state layer's (state/actions-soon.ts loads them at the first use).
 */
import type { Headline } from '$lib/api';
import { markBesideReadSoon, setFlagSoon } from '$lib/state/actions-soon';
import { feedPrefs, openDecision } from '$lib/state/feed-prefs.svelte';
import { readOnScroll } from '$lib/state/read-on-scroll';
import { selection } from '$lib/state/selection.svelte';
import { settings } from '$lib/state/settings.svelte';

export class RowTaps {
	/** The list counts shown rows (state/shown-rows.svelte.ts `passed` says which loaded ones). */
	readonly scrolledPast: (shownBefore: number) => void = readOnScroll();

	constructor(private readonly rows: () => Headline[]) {}

	toggleStar(headline: Headline): void {
		void setFlagSoon([headline], 'starred', !headline.marked);
	}

	markBesideRead(headline: Headline, side: 'above' | 'below'): void {
		void markBesideReadSoon(headline.id, side);
	}

	pick(articleId: number, how: 'toggle' | 'range'): void {
		if (how === 'range') selection.range(articleId, this.rows());
		else selection.toggle(articleId);
	}

	/**
	 * A tap on a row of a feed set to open on its own site (the feed settings sheet): its link in a
	 * new tab, read through the same intent as any open. True when so (the row's link is not
	 * followed); j/k and addresses still open articles in the app.
	 */
	openedOnSite(headline: Headline): boolean {
		const own = headline.feedId === null ? {} : feedPrefs.of('feed', String(headline.feedId));
		const decision = openDecision(headline, own, settings.values.keepUnreadOnOpen);
		if (!decision.original) return false;
		window.open(decision.original, '_blank', 'noopener,noreferrer');
		if (decision.markRead && headline.unread) void setFlagSoon([headline], 'unread', false);
		return true;
	}
}
