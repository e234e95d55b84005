import { describe, expect, it } from 'vitest';
import type { Headline } from '$lib/api';
import { cardImage, ROW_HEIGHTS, rowHeightOf, TEXT_CARD_HEIGHT } from './row-heights';

const headline = (flavorImage: string | undefined) =>
	({ id: 1, link: 'https://example.org/a', flavorImage }) as Headline;

describe('a headline row’s height', () => {
	it('a card with an image keeps the image card’s height; one without is a text card', () => {
		const withImage = headline('https://example.org/a.png');
		expect(cardImage(withImage)).toBe('https://example.org/a.png');
		expect(rowHeightOf('cards', withImage)).toBe(ROW_HEIGHTS.cards);
		expect(rowHeightOf('cards', headline(undefined))).toBe(TEXT_CARD_HEIGHT);
		expect(TEXT_CARD_HEIGHT).toBeLessThan(ROW_HEIGHTS.cards / 2 + 20);
	});

	it('an image the sanitizer refuses is no image: a text card, never an empty box', () => {
		const refused = headline('javascript:alert(1)');
		expect(cardImage(refused)).toBeUndefined();
		expect(rowHeightOf('cards', refused)).toBe(TEXT_CARD_HEIGHT);
	});

	it('other densities: one height whatever the image', () => {
		for (const density of ['compact', 'comfortable'] as const) {
			expect(rowHeightOf(density, headline('https://example.org/a.png'))).toBe(
				ROW_HEIGHTS[density]
			);
			expect(rowHeightOf(density, headline(undefined))).toBe(ROW_HEIGHTS[density]);
		}
	});
});
