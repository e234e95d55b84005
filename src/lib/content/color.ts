/**
 * Label and feed colours come from the server (tt-rss stores whatever was typed) and end up in a
 * `style` attribute. Svelte writes `style:` values into the attribute text, so a value such as
 * `red; position:fixed; inset:0` would add declarations of its own. Only colour syntax passes.
 */

const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
/** Plain numbers only: no var(), calc(), url(), nested functions or other words. */
const NUMBER = String.raw`[+-]?(?:\d+(?:\.\d+)?|\.\d+)(?:%|deg|turn|rad)?`;
const FUNCTION = new RegExp(
	String.raw`^(?:rgba?|hsla?)\(\s*${NUMBER}(?:\s*[,\s]\s*${NUMBER}){2}(?:\s*[,/]\s*${NUMBER})?\s*\)$`,
	'i'
);
/** Named colours (red, rebeccapurple, transparent, currentcolor): one word of letters. */
const NAMED = /^[a-z]{3,30}$/i;

/** The colour if `value` is colour syntax and nothing else; undefined otherwise. */
export function safeColor(value: string | null | undefined): string | undefined {
	if (typeof value !== 'string') return undefined;
	const color = value.trim();
	return HEX.test(color) || FUNCTION.test(color) || NAMED.test(color) ? color : undefined;
}
