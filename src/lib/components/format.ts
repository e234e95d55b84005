// toLocale*String(…, options) builds a new Intl.DateTimeFormat on every call, which cost ~20 ms of
// a start's first screen (one per headline row); each formatter is built once instead.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
	const key = JSON.stringify(options);
	let found = formatters.get(key);
	if (!found) {
		found = new Intl.DateTimeFormat(undefined, options);
		formatters.set(key, found);
	}
	return found;
}

/** Dates as a reader wants them: the time for today, the day for this year, else the full date. */
export function shortDate(unixSeconds: number, now = new Date()): string {
	const date = new Date(unixSeconds * 1000);
	if (date.toDateString() === now.toDateString()) {
		return formatter({ hour: '2-digit', minute: '2-digit' }).format(date);
	}
	const sameYear = date.getFullYear() === now.getFullYear();
	return formatter({
		day: 'numeric',
		month: 'short',
		...(sameYear ? {} : { year: 'numeric' })
	}).format(date);
}

export function longDate(unixSeconds: number): string {
	return formatter({ dateStyle: 'long', timeStyle: 'short' }).format(new Date(unixSeconds * 1000));
}

export function isoDate(unixSeconds: number): string {
	return new Date(unixSeconds * 1000).toISOString();
}

let decoder: HTMLTextAreaElement | undefined;

/**
 * Some servers leave entities in excerpts (`&hellip;`); show them as the characters they mean.
 * A textarea's content is parsed as text with character references (RCDATA): markup in it never
 * becomes elements, so nothing loads or runs, and it is far cheaper than a DOMParser document per row.
 */
export function decodeEntities(text: string): string {
	if (!text.includes('&')) return text;
	decoder ??= document.createElement('textarea');
	decoder.innerHTML = text;
	return decoder.value;
}

/** "1:05:03" or "4:07" from seconds. */
export function duration(seconds: number | undefined): string | undefined {
	if (!seconds || !Number.isFinite(seconds)) return undefined;
	const s = Math.round(seconds);
	const h = Math.floor(s / 3600);
	const m = Math.floor((s % 3600) / 60);
	const rest = String(s % 60).padStart(2, '0');
	return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}
