/**
 * Muted words: articles whose title (and, if the reader asks, body) holds one of them are left
 * out of every headline list, online and offline alike, since the rows are filtered here on the
 * device rather than by the server. The list says how many it hid and can show them. With
 * "also mark them read", hidden unread rows go through the one action path (state/actions.ts), so
 * the change is queued offline like any other; otherwise the server's counters still count them.
 * Kept per account in the IndexedDB store `sync` (`mute:<account>`), wiped at sign-out with it.
 */
import type { Headline } from '$lib/api';
import { openReaderDb } from '$lib/db/open';
import { matchingWord, parseStoredWords } from '$lib/alerts/words';

export interface MuteSettings {
	words: string[];
	/** Look in the article's body too, not only its title. */
	content: boolean;
	/** Mark hidden unread articles read. */
	markRead: boolean;
}

export const NO_MUTE: MuteSettings = { words: [], content: false, markRead: false };

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

const key = (account: string): string => `mute:${account}`;

class Mute {
	#account: string | undefined;
	#settings = $state.raw<MuteSettings>(NO_MUTE);
	#showHidden = $state(false);

	get settings(): MuteSettings {
		return this.#settings;
	}

	/** The reader asked to see the hidden rows (until the next list or reload). */
	get showHidden(): boolean {
		return this.#showHidden;
	}

	set showHidden(value: boolean) {
		this.#showHidden = value;
	}

	/**
	 * Reads the account's words: each time a list layout or the settings screen opens (one small
	 * read), so words wiped by a sign-out never outlive it in memory.
	 */
	async load(account: string | undefined): Promise<void> {
		this.#account = account;
		if (account === undefined) {
			this.#settings = NO_MUTE;
			return;
		}
		const db = await openReaderDb();
		const stored = parseMuteSettings(await db.get('sync', key(account)));
		if (this.#account === account) this.#settings = stored;
	}

	async save(account: string, settings: MuteSettings): Promise<void> {
		const next = parseMuteSettings(settings);
		const db = await openReaderDb();
		await db.put('sync', next, key(account));
		this.#account = account;
		this.#settings = next;
	}

	reset(): void {
		this.#account = undefined;
		this.#settings = NO_MUTE;
		this.#showHidden = false;
	}
}

export const mute = new Mute();
