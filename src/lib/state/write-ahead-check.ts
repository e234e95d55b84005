/**
 * The one thing a start asks of the write-ahead journal (state/write-ahead.ts) before its first
 * screen: whether the journal's key holds anything at all. Apart from the journal itself, so the
 * first screen's code does not carry the journal's reading, writing and recovery (a page loads
 * those with its first change, or a start that found entries).
 */

/** The local storage key of the journal (state/write-ahead.ts). */
export const JOURNAL_KEY = 'reader.journal';

/** Whether a start has anything to look at (synchronous and cheap: the common answer is no). */
export function journalHasEntries(): boolean {
	try {
		return localStorage.getItem(JOURNAL_KEY) !== null;
	} catch {
		return false;
	}
}
