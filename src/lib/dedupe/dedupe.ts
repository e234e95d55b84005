/**
 * Duplicates: articles that are the same story, shown once in a headline list. Pure: rows in,
 * groups out, on the device (online and offline lists alike, over whatever rows were loaded).
 *
 * Two articles are the same story when
 * - their links are the same once normalised (`linkKey`: tracking parameters, `www.`, the scheme,
 *   a trailing slash, the fragment and the query's order do not count), from any feeds; or
 * - their titles are the same once normalised (`titleKey`: case, accents, punctuation and spacing
 *   do not count), they come from different feeds, and were updated within `TITLE_WINDOW_S`.
 * The relation is closed transitively (a story in three feeds is one group), so the groups do not
 * depend on the rows' order; the row shown for a group is its first in the list's order.
 */
import { words } from '$lib/search/text';

/** What grouping reads of a row (a Headline has it all). */
export interface DedupeRow {
	id: number;
	feedId: number | null;
	link: string;
	title: string;
	/** Unix time in seconds. */
	updated: number;
}

/** Same title from different feeds counts as one story within this many seconds (three days). */
export const TITLE_WINDOW_S = 3 * 24 * 3600;

/** A title shorter than this (normalised) is too common to say two articles are one story. */
export const MIN_TITLE_CHARS = 12;

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
 * slash, the query without tracking parameters and sorted; scheme and fragment left out. Undefined
 * for anything that is not an http(s) address.
 */
export function linkKey(link: string): string | undefined {
	let url: URL;
	try {
		url = new URL(link.trim());
	} catch {
		return undefined;
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
	const host = url.hostname.toLowerCase().replace(/^www\./, '');
	if (host === '') return undefined;
	const port = url.port === '' || url.port === '80' || url.port === '443' ? '' : `:${url.port}`;
	const path = url.pathname.replace(/\/+$/, '');
	const params = [...url.searchParams]
		.filter(([name]) => !isTracking(name))
		.sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
	const query = new URLSearchParams(params).toString();
	return `${host}${port}${path}${query ? `?${query}` : ''}`;
}

/** The title as a key (its words, folded), or undefined when too short to tell stories apart. */
export function titleKey(title: string): string | undefined {
	const key = words(title).join(' ');
	return key.length >= MIN_TITLE_CHARS ? key : undefined;
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

/** Groups the rows that are the same story (see the top of this file). */
export function groupDuplicates<T extends DedupeRow>(all: readonly T[]): Duplicates<T> {
	// The same article twice (pages that overlap) is one row, not a story of its own.
	const ids = new Set<number>();
	const rows = all.filter((row) => !ids.has(row.id) && Boolean(ids.add(row.id)));
	// Union-find over the rows' indexes; a root is always the lowest index of its set.
	const parent = rows.map((_, i) => i);
	const find = (i: number): number => {
		let root = i;
		while (parent[root] !== root) root = parent[root]!;
		while (parent[i] !== root) [parent[i], i] = [root, parent[i]!];
		return root;
	};
	const join = (a: number, b: number): void => {
		const ra = find(a);
		const rb = find(b);
		if (ra < rb) parent[rb] = ra;
		else if (rb < ra) parent[ra] = rb;
	};

	const byLink = new Map<string, number>();
	const byTitle = new Map<string, number[]>();
	rows.forEach((row, i) => {
		const link = linkKey(row.link);
		if (link !== undefined) {
			const first = byLink.get(link);
			if (first === undefined) byLink.set(link, i);
			else join(first, i);
		}
		const title = titleKey(row.title);
		if (title !== undefined && row.feedId !== null) {
			const same = byTitle.get(title);
			if (same === undefined) byTitle.set(title, [i]);
			else {
				for (const j of same) {
					const other = rows[j]!;
					if (
						other.feedId !== row.feedId &&
						Math.abs(other.updated - row.updated) <= TITLE_WINDOW_S
					) {
						join(j, i);
					}
				}
				same.push(i);
			}
		}
	});

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
