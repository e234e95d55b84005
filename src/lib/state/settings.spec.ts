import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, parseSettings, readingVars } from './settings.svelte';

describe('parseSettings', () => {
	it('falls back to defaults for missing, broken or hostile values', () => {
		expect(parseSettings(null)).toEqual(DEFAULT_SETTINGS);
		expect(parseSettings('not json')).toEqual(DEFAULT_SETTINGS);
		expect(parseSettings('[1,2]')).toEqual(DEFAULT_SETTINGS);
		expect(
			parseSettings(
				JSON.stringify({ theme: 'neon', textSize: 9999, hideEmpty: 'yes', offlineArticles: -5 })
			)
		).toEqual(DEFAULT_SETTINGS);
	});

	it('keeps valid values', () => {
		const parsed = parseSettings(JSON.stringify({ theme: 'dark', textSize: 120, hideEmpty: true }));
		expect(parsed.theme).toBe('dark');
		expect(parsed.textSize).toBe(120);
		expect(parsed.hideEmpty).toBe(true);
	});

	it('keeps the black and sepia themes and a known row density, nothing else', () => {
		expect(parseSettings(JSON.stringify({ theme: 'black' })).theme).toBe('black');
		expect(parseSettings(JSON.stringify({ theme: 'sepia' })).theme).toBe('sepia');
		expect(DEFAULT_SETTINGS.density).toBe('comfortable');
		expect(parseSettings(JSON.stringify({ density: 'compact' })).density).toBe('compact');
		expect(parseSettings(JSON.stringify({ density: 'cards' })).density).toBe('cards');
		expect(parseSettings(JSON.stringify({ density: 'huge' })).density).toBe('comfortable');
	});

	it('keeps a playback speed the player offers, and the mark-read-when-played choice', () => {
		expect(DEFAULT_SETTINGS.markReadWhenPlayed).toBe(true);
		const parsed = parseSettings(JSON.stringify({ playbackRate: 1.5, markReadWhenPlayed: false }));
		expect(parsed.playbackRate).toBe(1.5);
		expect(parsed.markReadWhenPlayed).toBe(false);
		for (const bad of [0, 0.1, 16, 'fast', null]) {
			expect(parseSettings(JSON.stringify({ playbackRate: bad })).playbackRate).toBe(1);
		}
	});

	it('keeps the article typography and unread display only when valid', () => {
		const good = parseSettings(
			JSON.stringify({ readingFont: 'sans', lineHeight: 1.8, measure: 50, unreadDisplay: 'dot' })
		);
		expect(good).toMatchObject({
			readingFont: 'sans',
			lineHeight: 1.8,
			measure: 50,
			unreadDisplay: 'dot'
		});
		const bad = parseSettings(
			JSON.stringify({ readingFont: 'comic', lineHeight: 9, measure: 200, unreadDisplay: 'big' })
		);
		expect(bad).toMatchObject({
			readingFont: 'serif',
			lineHeight: 1.6,
			measure: 70,
			unreadDisplay: 'count'
		});
	});
});

describe('readingVars', () => {
	it('turns the typography settings into the article body’s custom properties', () => {
		expect(
			readingVars({ textSize: 115, readingFont: 'sans', lineHeight: 1.4, measure: 60 })
		).toEqual({
			'--text-size': '115%',
			'--font-reading': 'var(--font)',
			'--reading-leading': '1.4',
			'--reading-measure': '60ch'
		});
		expect(readingVars(DEFAULT_SETTINGS)['--font-reading']).toBe('var(--font-serif)');
	});
});
