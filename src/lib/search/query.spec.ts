import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasPositiveTerm, parseQuery, type QueryTerm } from './query';

const term = (words: string[], extra: Partial<QueryTerm> = {}): QueryTerm => ({
	field: 'any',
	words,
	phrase: false,
	negated: false,
	prefix: false,
	...extra
});

describe('parseQuery', () => {
	it('reads words, all required, the last one as a prefix', () => {
		expect(parseQuery('Big  feed').terms).toEqual([
			term(['big']),
			term(['feed'], { prefix: true })
		]);
	});

	it('reads quoted phrases, exclusions and fields', () => {
		expect(parseQuery('"Big Feed" -beta title:item author:"Jane Doe" tag:news').terms).toEqual([
			term(['big', 'feed'], { phrase: true }),
			term(['beta'], { negated: true }),
			term(['item'], { field: 'title' }),
			term(['jane', 'doe'], { field: 'author', phrase: true }),
			term(['news'], { field: 'tag', prefix: true })
		]);
	});

	it('excludes phrases and fields too', () => {
		expect(parseQuery('-"x y" -TITLE:Café').terms).toEqual([
			term(['x', 'y'], { phrase: true, negated: true }),
			term(['cafe'], { field: 'title', negated: true })
		]);
	});

	it('makes a quoted or excluded last term no prefix', () => {
		expect(parseQuery('a "b"').terms[1]?.prefix).toBe(false);
		expect(parseQuery('a -b').terms.some((t) => t.prefix)).toBe(false);
	});

	it('reads bad input as plain words', () => {
		expect(parseQuery('foo:bar').terms).toEqual([
			term(['foo', 'bar'], { phrase: true, prefix: true })
		]);
		expect(parseQuery('"unterminated phrase').terms).toEqual([
			term(['unterminated', 'phrase'], { phrase: true })
		]);
		expect(parseQuery('a - b').terms).toEqual([term(['a']), term(['b'], { prefix: true })]);
		expect(parseQuery('title: "" -').terms).toEqual([term(['title'], { prefix: true })]);
		expect(parseQuery('"" - -""').terms).toEqual([]);
		expect(parseQuery('c++').terms).toEqual([term(['c'], { prefix: true })]);
	});

	it('splits scripts written without spaces into characters matched as a phrase', () => {
		expect(parseQuery('日本語').terms).toEqual([
			term(['日', '本', '語'], { phrase: true, prefix: true })
		]);
	});

	it('knows whether a query can select anything', () => {
		expect(hasPositiveTerm(parseQuery('-a -b'))).toBe(false);
		expect(hasPositiveTerm(parseQuery('a -b'))).toBe(true);
	});

	it('never throws, and every term has folded, non-empty words', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (input) => {
				const { terms } = parseQuery(input);
				for (const t of terms) {
					expect(t.words.length).toBeGreaterThan(0);
					for (const w of t.words) {
						expect(w).not.toBe('');
						expect(w).toBe(w.toLowerCase());
						expect(w).not.toMatch(/\s/);
					}
				}
				expect(terms.filter((t) => t.prefix).length).toBeLessThanOrEqual(1);
			}),
			{ numRuns: 500 }
		);
	});

	it('reads a query of plain words as those words, in order', () => {
		fc.assert(
			fc.property(fc.array(fc.stringMatching(/^[a-z0-9]{1,8}$/), { maxLength: 8 }), (list) => {
				const terms = parseQuery(list.join(' ')).terms;
				expect(terms.map((t) => t.words[0])).toEqual(list);
				expect(terms.every((t) => t.field === 'any' && !t.negated)).toBe(true);
			})
		);
	});
});
