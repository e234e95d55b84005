/** Dates as a reader wants them: the time for today, the day for this year, else the full date. */
export function shortDate(unixSeconds: number, now = new Date()): string {
	const date = new Date(unixSeconds * 1000);
	if (date.toDateString() === now.toDateString()) {
		return date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
	}
	const sameYear = date.getFullYear() === now.getFullYear();
	return date.toLocaleDateString(undefined, {
		day: 'numeric',
		month: 'short',
		...(sameYear ? {} : { year: 'numeric' })
	});
}

export function longDate(unixSeconds: number): string {
	return new Date(unixSeconds * 1000).toLocaleString(undefined, {
		dateStyle: 'long',
		timeStyle: 'short'
	});
}

export function isoDate(unixSeconds: number): string {
	return new Date(unixSeconds * 1000).toISOString();
}

/** Some servers leave entities in excerpts (`&hellip;`); show them as the characters they mean. */
export function decodeEntities(text: string): string {
	if (!text.includes('&')) return text;
	return (
		new DOMParser().parseFromString(`<!doctype html><body>${text}`, 'text/html').body.textContent ??
		text
	);
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
