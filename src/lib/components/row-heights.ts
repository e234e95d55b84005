import type { Headline } from '$lib/api';
import { safeUrl } from '$lib/content/url';
import type { Density } from '$lib/state/settings.svelte';

/**
 * Each density's headline row height (px): the virtual list's rows are one height per density, and
 * HeadlineRow.svelte's layout for a density fits in it (compact: title over feed and date;
 * comfortable: feed and date, two lines of title, one of excerpt; cards: image over the text).
 */
export const ROW_HEIGHTS: Record<Density, number> = { compact: 58, comfortable: 100, cards: 280 };

/**
 * A card whose article has no image: a text card (feed and date, two lines of title, two of
 * excerpt), as tall as its text and no taller: no empty image box.
 */
export const TEXT_CARD_HEIGHT = 148;

/** The image a card shows: the flavor image, if its URL passes the sanitizer's rule. */
export function cardImage(headline: Pick<Headline, 'flavorImage' | 'link'>): string | undefined {
	return headline.flavorImage ? safeUrl(headline.flavorImage, 'image', headline.link) : undefined;
}

/** A headline's row height in a density. */
export function rowHeightOf(density: Density, headline: Headline): number {
	if (density === 'cards' && !cardImage(headline)) return TEXT_CARD_HEIGHT;
	return ROW_HEIGHTS[density];
}
