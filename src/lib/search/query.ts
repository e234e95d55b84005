/**
 * The offline search's query language: the part of tt-rss's search syntax a local index can
 * answer. Words (all must match; the last one also matches as the start of a word), "quoted
 * phrases", -word / -"phrase" to exclude, and title:, author:, tag: (with quotes too). Anything
 * else — an unknown `key:`, a stray quote or dash — is read as plain words: a query never fails.
 */
import { isUnspaced, words } from './text';

export type SearchField = 'any' | 'title' | 'author' | 'tag';

export interface QueryTerm {
	field: SearchField;
	/** Folded words (see text.ts), never empty. */
	words: string[];
	/** The words must stand next to each other in this order. */
	phrase: boolean;
	/** Articles that match this term are left out. */
	negated: boolean;
	/** The last word may be the start of a longer word (the query's last plain word only). */
	prefix: boolean;
}

export interface ParsedQuery {
	terms: QueryTerm[];
}

const FIELDS: Record<string, SearchField> = { title: 'title', author: 'author', tag: 'tag' };

/** One whitespace-separated piece: an optional `-`, an optional `field:`, a word or a "phrase". */
const PIECE = /(-?)(?:([a-z]+):)?(?:"([^"]*)"?|(\S+))/giy;

export function parseQuery(input: string): ParsedQuery {
	const terms: QueryTerm[] = [];
	let lastPlain: QueryTerm | undefined;
	let at = 0;
	while (at < input.length) {
		const space = /\s+/y;
		space.lastIndex = at;
		if (space.exec(input)) {
			at = space.lastIndex;
			continue;
		}
		PIECE.lastIndex = at;
		const m = PIECE.exec(input);
		if (!m || PIECE.lastIndex === at) {
			// Cannot happen with PIECE's last alternative; kept so a bad input can never loop.
			at++;
			continue;
		}
		at = PIECE.lastIndex;
		const [, dash, key, quoted, bare] = m;
		const field = key !== undefined ? FIELDS[key.toLowerCase()] : 'any';
		// An unknown `key:` is part of the words (`c++:` or `foo:bar` search for those words).
		const text = field === undefined ? `${key}:${quoted ?? bare ?? ''}` : (quoted ?? bare ?? '');
		const found = words(text);
		if (found.length === 0) continue;
		const term: QueryTerm = {
			field: field ?? 'any',
			words: found,
			phrase: quoted !== undefined || found.length > 1 || found.some(isUnspaced),
			negated: dash === '-',
			prefix: false
		};
		terms.push(term);
		lastPlain = quoted === undefined && !term.negated ? term : undefined;
	}
	if (lastPlain && terms[terms.length - 1] === lastPlain) lastPlain.prefix = true;
	return { terms };
}

/** True when the query can select anything: at least one term that is not an exclusion. */
export function hasPositiveTerm(query: ParsedQuery): boolean {
	return query.terms.some((t) => !t.negated);
}
