import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fold, hasPhrase, htmlToText, words } from './text';

describe('htmlToText', () => {
	it('keeps the visible words and drops tags, scripts, styles and comments', () => {
		const text = htmlToText(
			'<p>Hello <b>big</b>&nbsp;world</p><script>alert("x")</script><style>p{}</style><!-- hidden -->&amp; more&#33; &#x41;&#98;'
		);
		expect(words(text)).toEqual(['hello', 'big', 'world', 'more', 'ab']);
		expect(text).not.toContain('alert');
	});

	it('never throws on any input', () => {
		fc.assert(
			fc.property(fc.string({ maxLength: 200 }), (html) => {
				expect(typeof htmlToText(html)).toBe('string');
			})
		);
	});
});

describe('words', () => {
	it('folds case and accents and splits on anything that is not a letter or digit', () => {
		expect(words('Café CRÈME, brûlée — HTML5/node.js')).toEqual([
			'cafe',
			'creme',
			'brulee',
			'html5',
			'node',
			'js'
		]);
		expect(fold('Ｆｕｌｌ')).toBe('full');
	});

	it('reads Cyrillic and Greek as words and CJK as characters', () => {
		expect(words('Международный обзор')).toEqual(['международныи', 'обзор']);
		expect(words('国際ニュース')).toEqual(['国', '際', 'ニ', 'ュ', 'ー', 'ス']);
	});
});

describe('hasPhrase', () => {
	it('finds words next to each other, in order, across markup', () => {
		expect(hasPhrase(htmlToText('the Big <b>Feed</b> item'), ['big', 'feed'])).toBe(true);
		expect(hasPhrase('feed big', ['big', 'feed'])).toBe(false);
		expect(hasPhrase('bigger feed', ['big', 'feed'])).toBe(false);
	});
});
