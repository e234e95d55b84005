/**
 * The muted words' rules (see mute.svelte.ts): reading stored settings and splitting a list into
 * the rows shown and hidden, with the one word matcher of alerts and search (alerts/words.ts).
 * Loaded only when an account has muted words.
 */
import type { Headline } from '$lib/api';
import { parseStoredWords, wordMatcher, wordTexts } from '$lib/alerts/words';
import { NO_MUTE, type MuteSettings } from './settings';

export function parseMuteSettings(value: unknown): MuteSettings {
	if (typeof value !== 'object' || value === null) return { ...NO_MUTE };
	const v = value as Record<string, unknown>;
	return {
		words: parseStoredWords(v.words),
		content: v.content === true,
		markRead: v.markRead === true
	};
}

/**
 * Each row's texts as tokenised last time, by article id, reused while its title and body are the
 * same strings: a list's rows are matched again at every change of the list (a row read, a page
 * added), and tokenising 50 bodies of 100 KB is most of that work. Bounded by the characters it
 * holds; the oldest go first.
 */
const MAX_CACHED_CHARS = 8 * 1024 * 1024;
const tokenised = new Map<number, { title: string; body: string; texts: string[] }>();
let cachedChars = 0;

function textsOf(row: Headline, content: boolean): string[] {
	const body = content ? row.content || row.excerpt || '' : '';
	const kept = tokenised.get(row.id);
	if (kept && kept.title === row.title && kept.body === body) return kept.texts;
	const texts = wordTexts(row, { content });
	if (kept) {
		tokenised.delete(row.id);
		cachedChars -= kept.texts.reduce((sum, t) => sum + t.length, 0);
	}
	tokenised.set(row.id, { title: row.title, body, texts });
	cachedChars += texts.reduce((sum, t) => sum + t.length, 0);
	for (const [id, old] of tokenised) {
		if (cachedChars <= MAX_CACHED_CHARS) break;
		tokenised.delete(id);
		cachedChars -= old.texts.reduce((sum, t) => sum + t.length, 0);
	}
	return texts;
}

/** The rows a list shows and the ones the muted words hide, each in the list's order. */
export function splitMuted(
	rows: readonly Headline[],
	settings: MuteSettings
): { shown: Headline[]; hidden: Headline[] } {
	if (settings.words.length === 0) return { shown: [...rows], hidden: [] };
	const matcher = wordMatcher(settings.words);
	const shown: Headline[] = [];
	const hidden: Headline[] = [];
	for (const row of rows)
		(matcher.first(textsOf(row, settings.content)) === undefined ? shown : hidden).push(row);
	return { shown, hidden };
}
