import type { Headline } from '$lib/api';
import { imageUrl, signedImagesOf } from '$lib/content/url';
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

/**
 * The image a card shows: the flavor image, if its URL passes the sanitizer's rule; where the
 * Reader plugin signs the account's images (`proxyOn`, session.imageProxy), only through its
 * proxy: a card whose image it did not sign is a text card, its image never asked of its host.
 */
export function cardImage(
	headline: Pick<Headline, 'flavorImage' | 'link' | 'signedImages'>,
	proxyOn: boolean
): string | undefined {
	return imageUrl(headline.flavorImage, headline.link, signedImagesOf(headline, proxyOn));
}

/** A headline's row height in a density. */
export function rowHeightOf(density: Density, headline: Headline, proxyOn: boolean): number {
	if (density === 'cards' && !cardImage(headline, proxyOn)) return TEXT_CARD_HEIGHT;
	return ROW_HEIGHTS[density];
}
