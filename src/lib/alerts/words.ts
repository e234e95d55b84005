/**
 * Words the reader picks (an alert's search words, the muted words) and the one rule that says
 * whether an article holds them: whole words, case and accents ignored, a phrase when several
 * words are given together. The splitting and folding are the offline search's own
 * (src/lib/search/text.ts), so "rust" matches here exactly where the search would find it.
 */
import { hasPhrase, htmlToText, words } from '$lib/search/text';

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
 * The first of `entries` the article holds (in its title, and in its body when `content`), or
 * undefined. An entry of several words matches only as that phrase.
 */
export function matchingWord(
	article: WordTarget,
	entries: readonly string[],
	{ content = false }: { content?: boolean } = {}
): string | undefined {
	if (entries.length === 0) return undefined;
	const body = content ? article.content || article.excerpt : undefined;
	const texts = [article.title, body ? htmlToText(body) : ''];
	for (const entry of entries) {
		const phrase = words(entry);
		if (phrase.length === 0) continue;
		if (texts.some((text) => text !== '' && hasPhrase(text, phrase))) return entry;
	}
	return undefined;
}
