import { describe, expect, it } from 'vitest';
import type { Headline } from '$lib/api';
import { cardImage, ROW_HEIGHTS, rowHeightOf, TEXT_CARD_HEIGHT } from './row-heights';

const headline = (flavorImage: string | undefined, signedImages?: Record<string, string>) =>
	({
		id: 1,
		link: 'https://example.org/a',
		flavorImage,
		...(signedImages ? { signedImages } : {})
	}) as Headline;

describe('a headline row’s height', () => {
	it('a card with an image keeps the image card’s height; one without is a text card', () => {
		const withImage = headline('https://example.org/a.png');
		expect(cardImage(withImage, false)).toBe('https://example.org/a.png');
		expect(rowHeightOf('cards', withImage, false)).toBe(ROW_HEIGHTS.cards);
		expect(rowHeightOf('cards', headline(undefined), false)).toBe(TEXT_CARD_HEIGHT);
		expect(TEXT_CARD_HEIGHT).toBeLessThan(ROW_HEIGHTS.cards / 2 + 20);
	});

	it('an image the sanitizer refuses is no image: a text card, never an empty box', () => {
		const refused = headline('javascript:alert(1)');
		expect(cardImage(refused, false)).toBeUndefined();
		expect(rowHeightOf('cards', refused, false)).toBe(TEXT_CARD_HEIGHT);
	});

	it('where the Reader plugin signs images, a card shows only a signed one (issue 55)', () => {
		const proxied =
			'https://rss.example/tt-rss/public.php?op=pluginhandler&plugin=reader&pmethod=image&uid=2&url=u&sig=s';
		// The parser gives the signed address as the flavor image.
		const signed = headline(proxied, { 'https://cdn.example/a.png': proxied });
		expect(cardImage(signed, true)).toBe(proxied);
		// An image the plugin did not sign (the account's images go through it, or this row's
		// map says so) is a text card, never a request to its host.
		const direct = headline('https://cdn.example/b.png');
		expect(cardImage(direct, true)).toBeUndefined();
		expect(rowHeightOf('cards', direct, true)).toBe(TEXT_CARD_HEIGHT);
		expect(cardImage(headline('https://cdn.example/b.png', {}), false)).toBeUndefined();
		// Without the plugin, as before.
		expect(cardImage(direct, false)).toBe('https://cdn.example/b.png');
	});

	it('other densities: one height whatever the image', () => {
		for (const density of ['compact', 'comfortable'] as const) {
			expect(rowHeightOf(density, headline('https://example.org/a.png'), false)).toBe(
				ROW_HEIGHTS[density]
			);
			expect(rowHeightOf(density, headline(undefined), true)).toBe(ROW_HEIGHTS[density]);
		}
	});
});
