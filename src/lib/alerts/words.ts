/**
 * Words the reader picks (an alert's search words, the muted words) and the one rule that says
 * whether an article holds them: whole words, case and accents ignored, a phrase when several
 * words are given together. The splitting and folding are the offline search's own
 * (src/lib/search/text.ts), so "rust" matches here exactly where the search would find it.
 */
import { anyPhraseIn, hasPhraseIn, htmlToText, phraseText, words } from '$lib/search/text';

/** The parts of an article the words are looked for in. */
export interface WordTarget {
	title: string;
	content?: string | undefined;
	excerpt?: string | undefined;
}

/** A word list as typed: commas or new lines between entries; blanks and repeats dropped. */
export function parseWordList(input: string): string[] {
	const seen = new Set<string>();
	const out: string[] = [];
	for (const raw of input.split(/[,\n]/)) {
		const entry = raw.trim().replace(/\s+/g, ' ');
		const key = words(entry).join(' ');
		if (key === '' || seen.has(key)) continue;
		seen.add(key);
		out.push(entry);
	}
	return out;
}

/** Narrows a stored word list (IndexedDB is outside input too). */
export function parseStoredWords(value: unknown): string[] {
	if (!Array.isArray(value)) return [];
	return parseWordList(value.filter((v): v is string => typeof v === 'string').join('\n'));
}

/**
 * The reader's entries as the matcher looks for them: `first(texts)` is the first entry (in the
 * reader's order) that these texts (`wordTexts`) hold, or undefined. Each text is read once for
 * all the entries; only a text that holds one is then searched entry by entry.
 */
export function wordMatcher(entries: readonly string[]): {
	first: (texts: readonly string[]) => string | undefined;
} {
	const list = entries
		.map((entry) => ({ entry, phrase: words(entry) }))
		.filter((e) => e.phrase.length > 0);
	const holdsAny = anyPhraseIn(list.map((e) => e.phrase));
	return {
		first(texts) {
			const holding = texts.filter(holdsAny);
			if (holding.length === 0) return undefined;
			return list.find((e) => holding.some((text) => hasPhraseIn(text, e.phrase)))?.entry;
		}
	};
}

/**
 * The texts of an article the words are looked for in (its title, and its body when `content`),
 * each tokenised once: matching many entries reads each body once, not once per entry.
 */
export function wordTexts(
	article: WordTarget,
	{ content = false }: { content?: boolean } = {}
): string[] {
	const body = content ? article.content || article.excerpt : undefined;
	return [article.title, body ? htmlToText(body) : ''].filter((t) => t !== '').map(phraseText);
}

/**
 * The first of `entries` the article holds (in its title, and in its body when `content`), or
 * undefined. An entry of several words matches only as that phrase.
 */
export function matchingWord(
	article: WordTarget,
	entries: readonly string[],
	options: { content?: boolean } = {}
): string | undefined {
	if (entries.length === 0) return undefined;
	return wordMatcher(entries).first(wordTexts(article, options));
}
