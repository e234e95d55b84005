/**
 * Duplicates: articles that are the same story, shown once in a headline list. Pure: rows in,
 * groups out, on the device (online and offline lists alike, over whatever rows were loaded).
 *
 * Reading the row shown marks its copies read too (state/shown-rows.svelte.ts), so two rows are
 * one story only on strong evidence; when in doubt, two rows. Two articles of different feeds are
 * the same story when
 * - their links name the same article once normalised (`linkKey`: tracking parameters, `www.`, the
 *   scheme, a trailing slash and the query's order do not count; a `#fragment` does), and that
 *   address says which article it is: it is not a site's root, not the feed's own site address,
 *   and no two items of one feed share it (feeds whose items all link to their home page, or to one
 *   page with `#fragments`, say nothing by their links); or
 * - their titles are the same once normalised (`titleKey`), distinctive (at least
 *   `MIN_TITLE_WORDS` words, and no feed has two items with it: "Daily digest" is a series, not a
 *   story), their texts (the excerpt, else the article) begin with the same `CONTENT_WORDS` words,
 *   and they were updated within `TITLE_WINDOW_S` of each other.
 * Two items of one feed are never joined by what they share with each other. The relation is
 * closed transitively (a story in three feeds is one group), so the groups do not depend on the
 * rows' order; the row shown for a group is its first in the list's order. The cost is linear in
 * the rows (each key once, no pairs of rows compared).
 */
import { htmlToText, spacedWords } from '$lib/search/text';

/** What grouping reads of a row (a Headline has it all). */
export interface DedupeRow {
	id: number;
	feedId: number | null;
	link: string;
	title: string;
	/** Unix time in seconds. */
	updated: number;
	/** The list's plain-text excerpt (getHeadlines `show_excerpt`), when the server sent one. */
	excerpt?: string | undefined;
	/** The article's HTML, where the row has it instead of an excerpt (the sync's rows). */
	content?: string | undefined;
	/** The feed's own site address (level 21+), when the server sent it. */
	siteUrl?: string | undefined;
}

/** Same title from different feeds counts as one story within this many seconds (three days). */
export const TITLE_WINDOW_S = 3 * 24 * 3600;

/** A title shorter than this (normalised) is too common to say two articles are one story. */
export const MIN_TITLE_CHARS = 12;

/** A title of fewer words is generic ("Daily digest", "Weekly links") whatever its length. */
export const MIN_TITLE_WORDS = 4;

/** How many of the text's first words must match for two same-titled rows to be one story. */
export const CONTENT_WORDS = 12;

/** How much of an article's HTML is read for its first words. */
const CONTENT_CHARS = 4000;

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
function isSiteRoot(key: string): boolean {
	return !key.includes('/') && !key.includes('?') && !key.includes('#');
}

/** The title as a key (its words, folded), or undefined when too short to tell stories apart. */
export function titleKey(title: string): string | undefined {
	const key = spacedWords(title);
	if (key.length < MIN_TITLE_CHARS) return undefined;
	// Words are one space apart: MIN_TITLE_WORDS words have MIN_TITLE_WORDS - 1 spaces.
	let at = -1;
	for (let spaces = 0; spaces < MIN_TITLE_WORDS - 1; spaces++) {
		at = key.indexOf(' ', at + 1);
		if (at === -1) return undefined;
	}
	return key;
}

/**
 * The first words of an excerpt or of the article's HTML as a key (a list's rows carry the one,
 * the sync's the other, and tt-rss makes the excerpt of the text), or undefined when it has too
 * few words to compare.
 */
export function contentKey(text: string | undefined): string | undefined {
	if (!text) return undefined;
	// The first words are in the first few thousand characters (a cut tag reads as a space).
	const spaced = spacedWords(htmlToText(text.slice(0, CONTENT_CHARS)));
	if (spaced === '') return undefined;
	// Words are one space apart: the first CONTENT_WORDS end where the next space is.
	let at = -1;
	for (let word = 1; word <= CONTENT_WORDS; word++) {
		at = spaced.indexOf(' ', at + 1);
		if (at === -1) return word === CONTENT_WORDS ? spaced : undefined;
	}
	return spaced.slice(0, at);
}

/** `hashOf(titleKey(title))` for a plain ASCII title without making its key; `NO_KEY` without one. */
export function titleHash(title: string): number {
	let hash = FNV_OFFSET;
	let length = 0;
	let words = 0;
	let inWord = false;
	for (let at = 0; at < title.length; at++) {
		let c = title.charCodeAt(at);
		if (c >= 128) return NOT_ASCII;
		if (c >= 65 && c <= 90) c += 32;
		if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
			if (!inWord) {
				if (words > 0) {
					hash = Math.imul(hash ^ 32, FNV_PRIME);
					length++;
				}
				words++;
				inWord = true;
			}
			hash = Math.imul(hash ^ c, FNV_PRIME);
			length++;
		} else inWord = false;
	}
	return length < MIN_TITLE_CHARS || words < MIN_TITLE_WORDS ? NO_KEY : hash;
}

/** The groups of a list: what it shows, and each shown row's copies. */
export interface Duplicates<T extends DedupeRow> {
	/** The rows to show, in the input's order: every row that is no other's copy. */
	shown: T[];
	/** A shown row's id → its copies (the other rows of its group), in the input's order. */
	copies: Map<number, T[]>;
	/** Every grouped row's id (shown or copy) → the id of the row shown for its group. */
	shownFor: Map<number, number>;
}

/** A row's feed as a number: an article shared to Published (no feed) is a source of its own. */
function sourceOf(row: DedupeRow): number {
	return row.feedId ?? -1e15 - row.id;
}

/**
 * An open-addressing table of row indexes (each slot holds an index + 1, 0 is empty), twice the
 * rows' count rounded up to a power of two: finding the rows that share a key takes typed-array
 * steps, not a Map entry per row (a Map of 20,000 string keys cost about three times as much).
 */
function slotTable(count: number): Int32Array {
	let size = 2;
	while (size < count * 2) size *= 2;
	return new Int32Array(size);
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** A string's 32-bit FNV-1a hash (which slot of a `slotTable` it starts at). */
export function hashOf(key: string): number {
	let hash = FNV_OFFSET;
	for (let at = 0; at < key.length; at++) hash = Math.imul(hash ^ key.charCodeAt(at), FNV_PRIME);
	return hash;
}

/**
 * Hashes are 32-bit integers; these two values outside that range say "no key" and "not plain
 * ASCII" (`titleHash`).
 */
export const NO_KEY = 2 ** 32;
export const NOT_ASCII = 2 ** 33;

/**
 * Rows that share a key, by the key: only keys from at least two sources, and none held twice by
 * one source (a key two items of one feed share says nothing of either). A row's key is asked for
 * (`keyOf`, which keeps what it made) only when its hash meets another row's: most rows' keys are
 * never made.
 */
function evidence(
	hashes: Float64Array,
	keyOf: (row: number) => string,
	sources: readonly number[]
): number[][] {
	const count = hashes.length;
	const table = slotTable(count);
	const mask = table.length - 1;
	// The first row holding a key → every row holding it; only keys held twice get an entry.
	const shared = new Map<number, number[]>();
	for (let i = 0; i < count; i++) {
		const hash = hashes[i]!;
		if (hash === NO_KEY) continue;
		for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
			const held = table[slot]!;
			if (held === 0) {
				table[slot] = i + 1;
				break;
			}
			const first = held - 1;
			if (hashes[first] === hash && keyOf(first) === keyOf(i)) {
				const list = shared.get(first);
				if (list) list.push(i);
				else shared.set(first, [first, i]);
				break;
			}
		}
	}
	const out: number[][] = [];
	for (const rows of shared.values()) {
		const seen = new Set<number>();
		if (rows.every((i) => !seen.has(sources[i]!) && Boolean(seen.add(sources[i]!)))) {
			out.push(rows);
		}
	}
	return out;
}

/** `evidence` over keys already made (undefined: no key). */
function evidenceOfKeys(
	keys: readonly (string | undefined)[],
	sources: readonly number[]
): number[][] {
	const hashes = new Float64Array(keys.length);
	keys.forEach((key, i) => {
		hashes[i] = key === undefined ? NO_KEY : hashOf(key);
	});
	return evidence(hashes, (i) => keys[i]!, sources);
}

/** The rows without a second copy of an article (pages that overlap), first copy kept. */
function firstOfEachId<T extends DedupeRow>(all: readonly T[]): T[] {
	const table = slotTable(all.length);
	const mask = table.length - 1;
	// Fibonacci hashing of the id: the product's top bits (ids in steps of 2^k spread too).
	const shift = Math.clz32(mask);
	const rows: T[] = [];
	for (let i = 0; i < all.length; i++) {
		const row = all[i]!;
		for (let slot = Math.imul(row.id | 0, 0x9e3779b1) >>> shift; ; slot = (slot + 1) & mask) {
			const held = table[slot]!;
			if (held === 0) {
				table[slot] = i + 1;
				rows.push(row);
				break;
			}
			if (all[held - 1]!.id === row.id) break;
		}
	}
	return rows;
}

/** Groups the rows that are the same story (see the top of this file). */
export function groupDuplicates<T extends DedupeRow>(all: readonly T[]): Duplicates<T> {
	// The same article twice (pages that overlap) is one row, not a story of its own.
	const rows = firstOfEachId(all);
	// Union-find over the rows' indexes; a root is always the lowest index of its set.
	const parent = Int32Array.from(rows, (_, i) => i);
	const find = (i: number): number => {
		let root = i;
		while (parent[root] !== root) root = parent[root]!;
		while (parent[i] !== root) {
			const next = parent[i]!;
			parent[i] = root;
			i = next;
		}
		return root;
	};
	const join = (a: number, b: number): void => {
		const ra = find(a);
		const rb = find(b);
		if (ra < rb) parent[rb] = ra;
		else if (rb < ra) parent[ra] = rb;
	};

	const sources = rows.map(sourceOf);
	// A feed's own site address is the same on each of its rows: keyed once per address.
	const siteKeys = new Map<string, string | undefined>();
	const siteKey = (url: string): string | undefined => {
		if (!siteKeys.has(url)) siteKeys.set(url, linkKey(url));
		return siteKeys.get(url);
	};
	const links = rows.map((row) => {
		const key = linkKey(row.link);
		if (key === undefined || isSiteRoot(key)) return undefined;
		return row.siteUrl && siteKey(row.siteUrl) === key ? undefined : key;
	});
	for (const same of evidenceOfKeys(links, sources)) {
		for (const i of same) join(same[0]!, i);
	}

	// A title's key is made only where its hash meets another's (few rows); the excerpt's words
	// only where a title is shared by rows of several sources.
	const titleHashes = new Float64Array(rows.length);
	const titles: (string | undefined)[] = new Array<undefined>(rows.length).fill(undefined);
	for (let i = 0; i < rows.length; i++) {
		const title = rows[i]!.title;
		const hash = titleHash(title);
		if (hash !== NOT_ASCII) titleHashes[i] = hash;
		else {
			const key = (titles[i] = titleKey(title));
			titleHashes[i] = key === undefined ? NO_KEY : hashOf(key);
		}
	}
	const titleOf = (i: number): string => (titles[i] ??= titleKey(rows[i]!.title)!);
	const stories: (string | undefined)[] = new Array<undefined>(rows.length).fill(undefined);
	for (const same of evidence(titleHashes, titleOf, sources)) {
		for (const i of same) {
			const content = contentKey(rows[i]!.excerpt || rows[i]!.content);
			if (content !== undefined) stories[i] = `${titleOf(i)}\n${content}`;
		}
	}
	for (const same of evidenceOfKeys(stories, sources)) {
		// One source each: neighbours in time within the window are one story.
		const byTime = [...same].sort((a, b) => rows[a]!.updated - rows[b]!.updated);
		for (let k = 1; k < byTime.length; k++) {
			const [a, b] = [byTime[k - 1]!, byTime[k]!];
			if (rows[b]!.updated - rows[a]!.updated <= TITLE_WINDOW_S) join(a, b);
		}
	}

	const shown: T[] = [];
	const copies = new Map<number, T[]>();
	const shownFor = new Map<number, number>();
	rows.forEach((row, i) => {
		const root = find(i);
		if (root === i) {
			shown.push(row);
			return;
		}
		const head = rows[root]!;
		const list = copies.get(head.id);
		if (list) list.push(row);
		else copies.set(head.id, [row]);
		shownFor.set(row.id, head.id);
		shownFor.set(head.id, head.id);
	});
	return { shown, copies, shownFor };
}

/** No groups: the rows as they are (the setting off). */
export function noDuplicates<T extends DedupeRow>(rows: readonly T[]): Duplicates<T> {
	return { shown: [...rows], copies: new Map(), shownFor: new Map() };
}

/** The fields grouping reads of a row, in one array per row: what decides its story. */
function groupedFields(row: DedupeRow): unknown[] {
	return [
		row.id,
		row.feedId,
		row.link,
		row.title,
		row.updated,
		row.excerpt,
		row.content,
		row.siteUrl
	];
}

/** A grouping that keeps its last answer (see `duplicatesMemo`). */
export interface DuplicatesMemo {
	<T extends DedupeRow>(rows: readonly T[]): Duplicates<T>;
	/** How many times the rows were grouped anew (not answered from the last grouping). */
	readonly regrouped: number;
}

/**
 * `groupDuplicates` that groups anew only when a row's grouped fields change. A read, a star or a
 * label makes new row objects (the list's rows are immutable) but no new story: such a change is
 * answered from the last grouping, with the new row objects in it, in one pass without keys.
 */
export function duplicatesMemo(): DuplicatesMemo {
	let last: unknown[][] = [];
	let headOf = new Map<number, number>();
	let regrouped = 0;
	const memo = <T extends DedupeRow>(rows: readonly T[]): Duplicates<T> => {
		const fields = rows.map(groupedFields);
		const same =
			fields.length === last.length &&
			fields.every((row, i) => row.every((value, k) => value === last[i]![k]));
		last = fields;
		if (!same) {
			regrouped++;
			const groups = groupDuplicates(rows);
			headOf = groups.shownFor;
			return groups;
		}
		return fromHeads(rows, headOf);
	};
	return Object.defineProperty(memo, 'regrouped', { get: () => regrouped }) as DuplicatesMemo;
}

/** The groups of `rows` as `headOf` (row id → the id of its story's shown row) says they are. */
function fromHeads<T extends DedupeRow>(
	rows: readonly T[],
	headOf: ReadonlyMap<number, number>
): Duplicates<T> {
	const ids = new Set<number>();
	const shown: T[] = [];
	const copies = new Map<number, T[]>();
	for (const row of rows) {
		if (ids.has(row.id)) continue;
		ids.add(row.id);
		const head = headOf.get(row.id);
		if (head === undefined || head === row.id) {
			shown.push(row);
			continue;
		}
		const list = copies.get(head);
		if (list) list.push(row);
		else copies.set(head, [row]);
	}
	return { shown, copies, shownFor: new Map(headOf) };
}
