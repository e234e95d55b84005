import { describe, expect, it } from 'vitest';
import { matchingWord, parseStoredWords, parseWordList } from './words';

describe('alert and mute words', () => {
	it('reads a typed list: commas or lines, blanks and repeats (any case) dropped', () => {
		expect(parseWordList(' Rust, , rust\nmachine   learning,Élan ')).toEqual([
			'Rust',
			'machine learning',
			'Élan'
		]);
		expect(parseWordList(' , \n ')).toEqual([]);
		expect(parseStoredWords(['a', 3, null, 'b'])).toEqual(['a', 'b']);
		expect(parseStoredWords('a')).toEqual([]);
	});

	it('matches whole words only, case and accents ignored, in the title', () => {
		const article = { title: 'Crème brûlée and RUST tips' };
		expect(matchingWord(article, ['rust'])).toBe('rust');
		expect(matchingWord(article, ['creme'])).toBe('creme');
		expect(matchingWord(article, ['rus'])).toBeUndefined();
		expect(matchingWord({ title: 'Trusty tools' }, ['rust'])).toBeUndefined();
	});

	it('the first entry in the reader’s order wins, in the title or the body', () => {
		const article = { title: 'About amet', content: '<p>lorem consectetur amet</p>' };
		const entries = ['nothing', 'consectetur', 'amet'];
		expect(matchingWord(article, entries, { content: true })).toBe('consectetur');
		expect(matchingWord(article, entries)).toBe('amet');
		expect(matchingWord(article, ['', '…', 'lorem consectetur'], { content: true })).toBe(
			'lorem consectetur'
		);
	});

	it('a phrase matches only as that phrase', () => {
		expect(matchingWord({ title: 'Big feed item 002' }, ['feed item'])).toBe('feed item');
		expect(matchingWord({ title: 'Item of the big feed' }, ['feed item'])).toBeUndefined();
	});

	it('looks in the body only when asked, and never in its markup', () => {
		const article = { title: 'News', content: '<p class="rust">About <b>Svelte</b></p>' };
		expect(matchingWord(article, ['svelte'])).toBeUndefined();
		expect(matchingWord(article, ['svelte'], { content: true })).toBe('svelte');
		expect(matchingWord(article, ['rust'], { content: true })).toBeUndefined();
		expect(
			matchingWord({ title: 'x', excerpt: 'an excerpt on svelte' }, ['svelte'], { content: true })
		).toBe('svelte');
	});

	it('words of scripts without spaces match by character run', () => {
		expect(matchingWord({ title: '国際ニュース' }, ['国際'])).toBe('国際');
	});
});
