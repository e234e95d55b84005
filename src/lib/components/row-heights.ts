import type { Density } from '$lib/state/settings.svelte';

/**
 * Each density's headline row height (px): the virtual list's rows are all one height, and
 * HeadlineRow.svelte's layout for a density fits in it (compact: title over feed and date;
 * comfortable: feed and date, two lines of title, one of excerpt; cards: image over the text).
 */
export const ROW_HEIGHTS: Record<Density, number> = { compact: 58, comfortable: 100, cards: 280 };
