/**
 * The muted words' rules (see mute.svelte.ts): reading stored settings and splitting a list into
 * the rows shown and hidden, with the one word matcher of alerts and search (alerts/words.ts).
 * Loaded only when an account has muted words.
 */
import type { Headline } from '$lib/api';
import { matchingWord, parseStoredWords } from '$lib/alerts/words';
import { NO_MUTE, type MuteSettings } from './mute.svelte';

export function parseMuteSettings(value: unknown): MuteSettings {
	if (typeof value !== 'object' || value === null) return { ...NO_MUTE };
	const v = value as Record<string, unknown>;
	return {
		words: parseStoredWords(v.words),
		content: v.content === true,
		markRead: v.markRead === true
	};
}

/** The rows a list shows and the ones the muted words hide, each in the list's order. */
export function splitMuted(
	rows: readonly Headline[],
	settings: MuteSettings
): { shown: Headline[]; hidden: Headline[] } {
	if (settings.words.length === 0) return { shown: [...rows], hidden: [] };
	const shown: Headline[] = [];
	const hidden: Headline[] = [];
	for (const row of rows)
		(matchingWord(row, settings.words, { content: settings.content }) === undefined
			? shown
			: hidden
		).push(row);
	return { shown, hidden };
}
