/**
 * Text for the offline search: article HTML reduced to plain words without ever parsing it into
 * a document (no DOMParser, nothing executed, usable in a worker too), and the one word splitting
 * and folding that both the index and the queries use, so they always agree.
 */

/** Elements whose text is not the article's words. */
const HIDDEN_ELEMENTS =
	/<(script|style|template|noscript|iframe|object|svg|math)\b[\s\S]*?<\/\1\s*>/gi;
const COMMENTS = /<!--[\s\S]*?(?:-->|$)/g;
const TAGS = /<\/?[a-z!?][^>]*>?/gi;
const ENTITY = /&(#x[0-9a-f]+|#[0-9]+|[a-z][a-z0-9]*);?/gi;
const NAMED: Record<string, string> = {
	amp: '&',
	lt: '<',
	gt: '>',
	quot: '"',
	apos: "'",
	nbsp: ' ',
	shy: '',
	hellip: '…',
	mdash: '—',
	ndash: '–',
	lsquo: '‘',
	rsquo: '’',
	ldquo: '“',
	rdquo: '”'
};

function decodeEntity(match: string, body: string): string {
	if (body[0] === '#') {
		const code =
			body[1] === 'x' || body[1] === 'X'
				? parseInt(body.slice(2), 16)
				: parseInt(body.slice(1), 10);
		return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
	}
	return NAMED[body.toLowerCase()] ?? match;
}

/** The visible words of an article's HTML, tags and hidden elements dropped, entities decoded. */
export function htmlToText(html: string): string {
	return html
		.replace(COMMENTS, ' ')
		.replace(HIDDEN_ELEMENTS, ' ')
		.replace(TAGS, ' ')
		.replace(ENTITY, decodeEntity);
}

/** Scripts written without spaces between words: each character is a word of its own. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;
const UNSPACED_ALL = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}])/gu;
const NOT_WORD = /[^\p{L}\p{N}]+/u;
const MARKS = /\p{M}+/gu;

/** Lower case, accents folded (é → e), compatibility forms unified (ﬁ → fi, full-width → ASCII). */
export function fold(text: string): string {
	return text.normalize('NFKD').replace(MARKS, '').toLowerCase();
}

/** The words of a text, folded, in order (repeats kept: phrases need the order). */
export function words(text: string): string[] {
	const out: string[] = [];
	for (const word of fold(text).split(NOT_WORD)) {
		if (word === '') continue;
		if (!UNSPACED.test(word)) {
			out.push(word);
			continue;
		}
		for (const part of word.split(UNSPACED_ALL)) if (part !== '') out.push(part);
	}
	return out;
}

/**
 * True when the text holds these words next to each other, in this order (with `prefix`, the
 * last one may be the start of a longer word).
 */
export function hasPhrase(text: string, phrase: readonly string[], prefix = false): boolean {
	if (phrase.length === 0) return true;
	return ` ${words(text).join(' ')} `.includes(` ${phrase.join(' ')}${prefix ? '' : ' '}`);
}

/** True when a word is written in a script without spaces (it then also needs a phrase check). */
export function isUnspaced(word: string): boolean {
	return UNSPACED.test(word);
}
