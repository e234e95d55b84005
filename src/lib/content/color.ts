/**
 * Label and feed colours come from the server (tt-rss stores whatever was typed) and end up in a
 * `style` attribute. Svelte writes `style:` values into the attribute text, so a value such as
 * `red; position:fixed; inset:0` would add declarations of its own. Only colour syntax passes.
 */

/**
 * The longest value read: `hsla(360deg, 100%, 100%, 0.25)` is 31 characters. A longer one is
 * refused before any pattern runs (the value is the server's, typed by anyone).
 */
export const MAX_COLOR_CHARS = 64;

const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
/** Plain numbers only: no var(), calc(), url(), nested functions or other words. */
const NUMBER = String.raw`[+-]?(?:\d+(?:\.\d+)?|\.\d+)(?:%|deg|turn|rad)?`;
/** Between two numbers: a comma (spaces around it) or spaces, each one way only (no backtracking). */
const BETWEEN = String.raw`(?:\s*,\s*|\s+)`;
const FUNCTION = new RegExp(
	String.raw`^(?:rgba?|hsla?)\(\s*${NUMBER}(?:${BETWEEN}${NUMBER}){2}(?:\s*[,/]\s*${NUMBER})?\s*\)$`,
	'i'
);
/** Named colours (red, rebeccapurple, transparent, currentcolor): one word of letters. */
const NAMED = /^[a-z]{3,30}$/i;

/** The colour if `value` is colour syntax and nothing else; undefined otherwise. */
export function safeColor(value: string | null | undefined): string | undefined {
	if (typeof value !== 'string') return undefined;
	const color = value.trim();
	if (color.length > MAX_COLOR_CHARS) return undefined;
	return HEX.test(color) || FUNCTION.test(color) || NAMED.test(color) ? color : undefined;
}
