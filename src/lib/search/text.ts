/**
 * Text for the offline search: article HTML reduced to plain words without ever parsing it into
 * a document (no DOMParser, nothing executed, usable in a worker too), and the one word splitting
 * and folding that both the index and the queries use, so they always agree.
 */

/**
 * The most of an article's HTML read for its words, in characters. Bodies come from feeds and
 * replies may be 32 MB; this text is made on the main thread (search, alerts, muted words), so a
 * body's words are those of its first 512 Ki characters (a long article is under 100 KB).
 */
export const MAX_HTML_CHARS = 512 * 1024;

/** Elements whose text is not the article's words: from an opening tag to its closing tag. */
const HIDDEN_NAMES = ['script', 'style', 'template', 'noscript', 'iframe', 'object', 'svg', 'math'];
const HIDDEN_OPEN = new RegExp(`<(${HIDDEN_NAMES.join('|')})\\b`, 'gi');
const HIDDEN_CLOSE = new Map(
	HIDDEN_NAMES.map((name) => [name, new RegExp(`</${name}\\s*>`, 'gi')])
);
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

/**
 * The HTML without its hidden elements (each replaced by a space), in one pass: each opening tag
 * looks for its closing tag once, and a name found unclosed is not looked for again (nothing
 * after it can close it), so the work grows with the length, however the tags are left open.
 */
function dropHidden(html: string): string {
	const parts: string[] = [];
	const unclosed = new Set<string>();
	let copied = 0;
	const open = HIDDEN_OPEN;
	open.lastIndex = 0;
	for (let tag = open.exec(html); tag; tag = open.exec(html)) {
		const name = (tag[1] ?? '').toLowerCase();
		const close = HIDDEN_CLOSE.get(name);
		if (!close || unclosed.has(name)) continue;
		close.lastIndex = open.lastIndex;
		if (!close.exec(html)) {
			unclosed.add(name);
			continue;
		}
		parts.push(html.slice(copied, tag.index), ' ');
		copied = close.lastIndex;
		open.lastIndex = copied;
	}
	parts.push(html.slice(copied));
	return parts.join('');
}

/**
 * The visible words of an article's HTML (its first MAX_HTML_CHARS), tags and hidden elements
 * dropped, entities decoded.
 */
export function htmlToText(html: string): string {
	// Plain text (a list's excerpt, most titles): no tag, comment or entity to read.
	if (!MARKUP.test(html)) return html.slice(0, MAX_HTML_CHARS);
	return dropHidden(html.slice(0, MAX_HTML_CHARS).replace(COMMENTS, ' '))
		.replace(TAGS, ' ')
		.replace(ENTITY, decodeEntity);
}

/** What makes a text more than plain text to `htmlToText`: a tag, a comment or an entity. */
const MARKUP = /[<&]/;

/** Scripts written without spaces between words: each character is a word of its own. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;
const UNSPACED_ALL = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}])/gu;
const NOT_WORD = /[^\p{L}\p{N}]+/gu;
const MARKS = /\p{M}+/gu;
const SPACES = / {2,}/g;
/**
 * Plain ASCII: nothing to fold but the case, and its words are [a-z0-9]+ (the fast path). A UTF-16
 * unit above 0x7F, a surrogate included: no `u` flag, so it is found as fast as a byte.
 */
const NOT_ASCII = /[\u0080-\uffff]/;
/**
 * In lower-case ASCII, what stands between words, written so that a lone space (most of a text)
 * is not replaced by itself: a run of two or more, or one that is not a space.
 */
const ASCII_BETWEEN = /[^a-z0-9]{2,}|[^a-z0-9 ]/g;

/** Lower case, accents folded (é → e), compatibility forms unified (ﬁ → fi, full-width → ASCII). */
export function fold(text: string): string {
	if (!NOT_ASCII.test(text)) return text.toLowerCase();
	return text.normalize('NFKD').replace(MARKS, '').toLowerCase();
}

/**
 * The one word splitting: a text's words, folded, in order, one space between each. Whole-string
 * passes, no array of words: a body of 100 KB is read in a few milliseconds.
 */
export function spacedWords(text: string): string {
	if (!NOT_ASCII.test(text)) return text.toLowerCase().replace(ASCII_BETWEEN, ' ').trim();
	return fold(text)
		.replace(NOT_WORD, ' ')
		.replace(UNSPACED_ALL, ' $1 ')
		.replace(SPACES, ' ')
		.trim();
}

/** The words of a text, folded, in order (repeats kept: phrases need the order). */
export function words(text: string): string[] {
	const spaced = spacedWords(text);
	return spaced === '' ? [] : spaced.split(' ');
}

/**
 * A text's words as phrases are looked for in it: tokenised once, then `hasPhraseIn` for each
 * phrase (a list of muted words reads each body once, not once per word).
 */
export function phraseText(text: string): string {
	return ` ${spacedWords(text)} `;
}

/** How a phrase is looked for in a `phraseText`. */
function phraseKey(phrase: readonly string[], prefix: boolean): string {
	return ` ${phrase.join(' ')}${prefix ? '' : ' '}`;
}

/** True when a `phraseText` holds these words next to each other, in this order. */
export function hasPhraseIn(prepared: string, phrase: readonly string[], prefix = false): boolean {
	return phrase.length === 0 || prepared.includes(phraseKey(phrase, prefix));
}

/**
 * A test of whether a `phraseText` holds any of these (whole-word) phrases, in one pass over the
 * text however many phrases there are (a list of muted words over a page of long bodies).
 */
export function anyPhraseIn(
	phrases: readonly (readonly string[])[]
): (prepared: string) => boolean {
	const keys = phrases.map((phrase) => phraseKey(phrase, false));
	if (keys.some((key) => key === '  ')) return () => true;
	if (keys.length === 0) return () => false;
	const any = new RegExp(keys.map((key) => key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'));
	return (prepared) => any.test(prepared);
}

/**
 * True when the text holds these words next to each other, in this order (with `prefix`, the
 * last one may be the start of a longer word).
 */
export function hasPhrase(text: string, phrase: readonly string[], prefix = false): boolean {
	return phrase.length === 0 || hasPhraseIn(phraseText(text), phrase, prefix);
}

/** True when a word is written in a script without spaces (it then also needs a phrase check). */
export function isUnspaced(word: string): boolean {
	return UNSPACED.test(word);
}
