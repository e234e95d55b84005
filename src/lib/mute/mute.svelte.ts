/**
 * Muted words: articles whose title (and, if the reader asks, body) holds one of them are left
 * out of every headline list, online and offline alike, since the rows are filtered here on the
 * device rather than by the server. The list says how many it hid and can show them. With
 * "also mark them read", hidden unread rows go through the one action path (state/actions.ts), so
 * the change is queued offline like any other; otherwise the server's counters still count them.
 * Kept per account as one kind of the reader's rules (rules/store.ts, which moved them from their
 * old key `mute:<account>`), in the IndexedDB store `sync`, wiped at sign-out with it.
 */
import type { Headline } from '$lib/api';
import { NO_MUTE, type MuteSettings } from './settings';
import { onAccountEvent } from '$lib/db/account-events';

// The matcher (mute/mute-rules.ts, with the word rules of alerts/words.ts and search/text.ts) is loaded
// only for an account that has muted words: a list without any needs none of it at start.
type Matcher = typeof import('./mute-rules');

export { NO_MUTE, type MuteSettings } from './settings';

class Mute {
	#account: string | undefined;
	#settings = $state.raw<MuteSettings>(NO_MUTE);
	#matcher: Matcher | undefined;
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
		// The rules' store is loaded with the first list, not with the first screen's code.
		const { loadMuteRule } = await import('$lib/rules/store');
		const rule = await loadMuteRule(account);
		if (!rule || rule.words.length === 0) {
			if (this.#account === account) this.#settings = NO_MUTE;
			return;
		}
		const matcher = await this.#load();
		if (this.#account === account) this.#settings = matcher.parseMuteSettings(rule);
	}

	/** The rows a list shows and the ones the muted words hide (mute/mute-rules.ts `splitMuted`). */
	split(rows: readonly Headline[]): { shown: Headline[]; hidden: Headline[] } {
		const settings = this.#settings;
		if (settings.words.length === 0 || !this.#matcher) return { shown: [...rows], hidden: [] };
		return this.#matcher.splitMuted(rows, settings);
	}

	async #load(): Promise<Matcher> {
		this.#matcher ??= await import('./mute-rules');
		return this.#matcher;
	}

	/** `mine` false: words the reader saved on another device (state/shared-settings.svelte.ts). */
	async save(account: string, settings: MuteSettings, mine = true): Promise<void> {
		const next = (await this.#load()).parseMuteSettings(settings);
		const { saveMuteRule } = await import('$lib/rules/store');
		await saveMuteRule(account, next);
		const before = this.#account === account ? this.#settings : NO_MUTE;
		this.#account = account;
		this.#settings = next;
		if (mine) for (const listener of this.#saved) listener(account, next, before);
	}

	readonly #saved = new Set<
		(account: string, settings: MuteSettings, before: MuteSettings) => void
	>();

	/** Hears of the words the reader saves here (and what they replaced); returns its stop. */
	onSave(
		listener: (account: string, settings: MuteSettings, before: MuteSettings) => void
	): () => void {
		this.#saved.add(listener);
		return () => this.#saved.delete(listener);
	}

	reset(): void {
		this.#account = undefined;
		this.#settings = NO_MUTE;
		this.#showHidden = false;
	}
}

export const mute = new Mute();
onAccountEvent(() => mute.reset());
