/**
 * A link as a key for "same story shown once" (dedupe.ts): two links name the same article when
 * their keys are equal. Tracking parameters, `www.`, the scheme, a trailing slash and the query's
 * order do not count; a `#fragment` does. The common link is read by hand in one pass
 * (`simpleLinkKey`), every other one through the URL parser (`linkKeyByUrl`); a property test holds
 * the two to the same answers.
 */
/** Query parameters that only say where a click came from (exact names, lower case). */
const TRACKING = new Set([
	'fbclid',
	'gclid',
	'gclsrc',
	'dclid',
	'gbraid',
	'wbraid',
	'msclkid',
	'yclid',
	'twclid',
	'ttclid',
	'igshid',
	'mc_cid',
	'mc_eid',
	'_hsenc',
	'_hsmi',
	'mkt_tok',
	'oly_anon_id',
	'oly_enc_id',
	'vero_id',
	'wickedid',
	'ref_src',
	'ref_url',
	'cmpid',
	'spm'
]);

/** Parameter name prefixes of the same kind (`utm_source`, `utm_medium`, …). */
const TRACKING_PREFIXES = ['utm_', 'pk_', 'mtm_', 'hsa_'];

function isTracking(name: string): boolean {
	const lower = name.toLowerCase();
	return TRACKING.has(lower) || TRACKING_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/**
 * The link as a key: host without `www.` (lower case, no default port), path without a trailing
 * slash, the query without tracking parameters and sorted, the fragment kept (one page's
 * `#sections` are different articles); the scheme left out. Undefined for anything that is not an
 * http(s) address.
 */
export function linkKey(link: string): string | undefined {
	const trimmed = link.trim();
	const simple = simpleLinkKey(trimmed);
	return simple === null ? linkKeyByUrl(trimmed) : simple;
}

/** What a character may be in each part of a simple link (a bit each, by char code below 128). */
const IN_HOST = 1;
const IN_PATH = 2;
const IN_QUERY = 4;
const IN_FRAGMENT = 8;
const CHARS = new Uint8Array(128);
for (const [chars, part] of [
	['-', IN_HOST],
	["-._~!$&'()*+,;=:@/", IN_PATH],
	['-._=&', IN_QUERY],
	["-._~!$&'()*+,;=:@/?", IN_FRAGMENT]
] as const) {
	for (const c of `abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789${chars}`) {
		CHARS[c.charCodeAt(0)]! |= part;
	}
}

/** The index of the first character at or after `from` that `part` does not allow. */
function scan(link: string, from: number, part: number): number {
	let at = from;
	while (at < link.length) {
		const c = link.charCodeAt(at);
		if (c >= 128 || (CHARS[c]! & part) === 0) break;
		at++;
	}
	return at;
}

/**
 * The most common link, read without an URL parser (a list of 20,000 rows is keyed in a few
 * milliseconds): http(s), a host name whose last label is not a number, an optional port without
 * leading zeros, a path of characters the parser keeps as they are, a query of plain names and
 * values (characters its serialiser writes as they are), a fragment of such characters. Null for
 * any other link, which goes through `linkKeyByUrl`; a property test holds the two to the same
 * answers.
 */
function simpleLinkKey(link: string): string | null {
	let at = link.startsWith('https://') ? 8 : link.startsWith('http://') ? 7 : -1;
	if (at === -1) return null;
	// The host: labels of letters, digits and '-', none empty, the last one not all digits.
	const hostStart = at;
	let label = at;
	let lastHasNonDigit = false;
	let upper = false;
	for (; at < link.length; at++) {
		const c = link.charCodeAt(at);
		if (c === 46 /* . */) {
			if (at === label) return null;
			label = at + 1;
			lastHasNonDigit = false;
		} else if (c < 128 && (CHARS[c]! & IN_HOST) !== 0) {
			if (c < 48 || c > 57) lastHasNonDigit = true;
			if (c >= 65 && c <= 90) upper = true;
		} else break;
	}
	if (at === label || !lastHasNonDigit) return null;
	const hostEnd = at;
	let port = '';
	if (link.charCodeAt(at) === 58 /* : */) {
		const digits = at + 1;
		let end = digits;
		while (end < link.length && end - digits < 5) {
			const c = link.charCodeAt(end);
			if (c < 48 || c > 57) break;
			end++;
		}
		const value = link.slice(digits, end);
		if (value === '' || value.length > 4 || value.startsWith('0')) return null;
		if (value !== '80' && value !== '443') port = `:${value}`;
		at = end;
	}
	const pathStart = at;
	let pathEnd = at;
	if (link.charCodeAt(at) === 47 /* / */) {
		pathEnd = scan(link, at, IN_PATH);
		if (hasDotSegment(link, at, pathEnd)) return null;
		at = pathEnd;
	}
	let query = '';
	if (link.charCodeAt(at) === 63 /* ? */) {
		const end = scan(link, at + 1, IN_QUERY);
		const key = simpleQueryKey(link, at + 1, end);
		if (key === undefined) return null;
		query = key;
		at = end;
	}
	let fragment = '';
	if (link.charCodeAt(at) === 35 /* # */) {
		const end = scan(link, at + 1, IN_FRAGMENT);
		if (end - at > 1) fragment = link.slice(at, end);
		at = end;
	}
	if (at !== link.length) return null;
	let kept = pathEnd;
	while (kept > pathStart && link.charCodeAt(kept - 1) === 47 /* / */) kept--;
	// Most links are their key as written after the scheme: one slice of the link, not a string
	// joined from parts (cheaper to make, and to hash when the key is looked up).
	if (
		!upper &&
		!link.startsWith('www.', hostStart) &&
		pathStart === hostEnd &&
		query === '' &&
		fragment === ''
	) {
		return link.slice(hostStart, kept);
	}
	const host = link.slice(hostStart, hostEnd).toLowerCase();
	const bare = host.startsWith('www.') ? host.slice(4) : host;
	return `${bare}${port}${link.slice(pathStart, kept)}${query ? `?${query}` : ''}${fragment}`;
}

/** Whether the path `link[from, end)` has a `.` or `..` segment, which the parser resolves. */
function hasDotSegment(link: string, from: number, end: number): boolean {
	for (let at = link.indexOf('/.', from); at !== -1 && at < end; at = link.indexOf('/.', at + 1)) {
		const next = at + 2 < end ? link.charCodeAt(at + 2) : -1;
		if (next === -1 || next === 47 /* / */) return true;
		if (next === 46 /* . */ && (at + 3 >= end || link.charCodeAt(at + 3) === 47)) return true;
	}
	return false;
}

/**
 * `queryKey` of the query `link[from, end)` (after its `?`), made only of the characters
 * `simpleLinkKey` lets through; undefined for a value with an `=` of its own (the serialiser
 * escapes it).
 */
function simpleQueryKey(link: string, from: number, end: number): string | undefined {
	let params: [string, string][] | undefined;
	for (let at = from; at < end;) {
		let amp = link.indexOf('&', at);
		if (amp === -1 || amp > end) amp = end;
		if (amp > at) {
			let eq = link.indexOf('=', at);
			if (eq >= amp) eq = -1;
			if (eq !== -1) {
				const second = link.indexOf('=', eq + 1);
				if (second !== -1 && second < amp) return undefined;
			}
			const name = link.slice(at, eq === -1 ? amp : eq);
			if (!isTracking(name)) (params ??= []).push([name, eq === -1 ? '' : link.slice(eq + 1, amp)]);
		}
		at = amp + 1;
	}
	// The usual queries: nothing but tracking, or one parameter (nothing to sort).
	if (params === undefined) return '';
	if (params.length === 1) return `${params[0]![0]}=${params[0]![1]}`;
	return params
		.sort(byNameThenValue)
		.map(([name, value]) => `${name}=${value}`)
		.join('&');
}

/** `linkKey` through the URL parser: every link it reads. Exported for the property test. */
export function linkKeyByUrl(link: string): string | undefined {
	let url: URL;
	try {
		url = new URL(link);
	} catch {
		return undefined;
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
	const host = url.hostname.toLowerCase().replace(/^www\./, '');
	if (host === '') return undefined;
	const port = url.port === '' || url.port === '80' || url.port === '443' ? '' : `:${url.port}`;
	const path = url.pathname.replace(/\/+$/, '');
	const query = url.search.length > 1 ? queryKey(url.searchParams) : '';
	const fragment = url.hash.length > 1 ? url.hash : '';
	return `${host}${port}${path}${query ? `?${query}` : ''}${fragment}`;
}

/** The query without tracking parameters, sorted by name and value. */
function queryKey(search: URLSearchParams): string {
	const params = [...search].filter(([name]) => !isTracking(name)).sort(byNameThenValue);
	return new URLSearchParams(params).toString();
}

/** A query's parameters in one order whatever the link's: by name, then by value. */
function byNameThenValue([a, av]: [string, string], [b, bv]: [string, string]): number {
	return a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0;
}

/** Whether a link key names only a site (its root, no query, no fragment): no article of its own. */
export function isSiteRoot(key: string): boolean {
	return !key.includes('/') && !key.includes('?') && !key.includes('#');
}
