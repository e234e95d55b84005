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
import { isSiteRoot, linkKey } from './link-key';

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
 * (`keyOf`) only when its hash meets another row's: where keys are made on demand (titles), most
 * are never made.
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
