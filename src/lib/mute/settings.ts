/**
 * What the reader muted, as stored and as the matcher (match.ts) reads it. Apart from
 * mute.svelte.ts so the matcher, which that module loads on demand, does not import it back.
 */
export interface MuteSettings {
	words: string[];
	/** Look in the article's body too, not only its title. */
	content: boolean;
	/** Mark hidden unread articles read. */
	markRead: boolean;
}

export const NO_MUTE: MuteSettings = { words: [], content: false, markRead: false };
