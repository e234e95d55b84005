/**
 * The offline search index in memory: an inverted index from field-tagged words to article ids,
 * with no ranking (local results are listed by date, as the headline list is). Pure: persistence
 * and scheduling live in indexer.ts. Why not a library: see docs/offline-search.md.
 */
import type { Headline } from '$lib/api';
import type { ParsedQuery, QueryTerm, SearchField } from './query';
import { hasPhrase, htmlToText, words } from './text';

/** One letter per indexed field, the prefix of each of its words in the index (`t:word`). */
const CODES = { title: 't', content: 'c', author: 'a', feed: 'f', tag: 'g' } as const;
type Code = (typeof CODES)[keyof typeof CODES];

const FIELD_CODES: Record<SearchField, readonly Code[]> = {
	any: ['t', 'c', 'a', 'f', 'g'],
	title: ['t'],
	author: ['a'],
	tag: ['g']
};

/** What the index keeps of an article (also its record in IndexedDB, see indexer.ts). */
export interface IndexedDoc {
	id: number;
	/** The article record's `storedAt` when it was indexed: a newer one is indexed again. */
	storedAt: number;
	/** Unix seconds, for listing results by date. */
	updated: number;
	feedId: number | null;
	/** Its distinct field-tagged words, space-separated (`t:big t:feed c:hello …`). */
	tokens: string;
}

/** The fields of an article the index reads. */
export type IndexableArticle = Pick<
	Headline,
	'id' | 'title' | 'content' | 'author' | 'feedTitle' | 'feedId' | 'updated'
> & { tags?: readonly string[]; excerpt?: string | undefined; storedAt: number };

export function docOf(article: IndexableArticle): IndexedDoc {
	const tokens = new Set<string>();
	const add = (code: Code, text: string | undefined): void => {
		if (text) for (const word of words(text)) tokens.add(`${code}:${word}`);
	};
	add(CODES.title, article.title);
	// A headline cached without its body still has the excerpt the list shows.
	const body = article.content || article.excerpt;
	add(CODES.content, body ? htmlToText(body) : undefined);
	add(CODES.author, article.author);
	add(CODES.feed, article.feedTitle);
	for (const tag of article.tags ?? []) add(CODES.tag, tag);
	return {
		id: article.id,
		storedAt: article.storedAt,
		updated: article.updated,
		feedId: article.feedId,
		tokens: [...tokens].join(' ')
	};
}

/** The ids a query selects from the index, and the checks only the article's text can settle. */
export interface IndexMatch {
	/** Newest first (or oldest first), before the checks below. */
	ids: number[];
	/** Phrase terms: an article is a result only if `rowMatches` holds for each. */
	checks: QueryTerm[];
}

export class SearchIndex {
	readonly #postings = new Map<string, number[]>();
	readonly #docs = new Map<number, IndexedDoc>();

	get size(): number {
		return this.#docs.size;
	}

	get(id: number): IndexedDoc | undefined {
		return this.#docs.get(id);
	}

	ids(): IterableIterator<number> {
		return this.#docs.keys();
	}

	add(doc: IndexedDoc): void {
		this.remove(doc.id);
		this.#docs.set(doc.id, doc);
		for (const token of doc.tokens.split(' ')) {
			if (token === '') continue;
			const list = this.#postings.get(token);
			if (list) list.push(doc.id);
			else this.#postings.set(token, [doc.id]);
		}
	}

	remove(id: number): void {
		const doc = this.#docs.get(id);
		if (!doc) return;
		this.#docs.delete(id);
		for (const token of doc.tokens.split(' ')) {
			const list = this.#postings.get(token);
			if (!list) continue;
			const at = list.indexOf(id);
			if (at >= 0) list.splice(at, 1);
			if (list.length === 0) this.#postings.delete(token);
		}
	}

	clear(): void {
		this.#postings.clear();
		this.#docs.clear();
	}

	/**
	 * Every word of every term that is not excluded must be in the article (in the term's field);
	 * exclusions drop what they match. Phrases are narrowed here by their words and left for
	 * `rowMatches` to confirm on the text. Only exclusions: everything but what they match.
	 */
	match(query: ParsedQuery, { oldestFirst = false }: { oldestFirst?: boolean } = {}): IndexMatch {
		const positive = query.terms.filter((t) => !t.negated);
		const negative = query.terms.filter((t) => t.negated);
		let selected: Set<number> | undefined;
		// Smallest first: every later intersection then costs at most the size of the first.
		const sets = positive.map((t) => this.#termIds(t)).sort((a, b) => a.size - b.size);
		for (const ids of sets) {
			if (!selected) selected = new Set(ids);
			else for (const id of selected) if (!ids.has(id)) selected.delete(id);
		}
		selected ??= new Set(this.#docs.keys());
		const checks = positive.filter((t) => t.phrase);
		for (const term of negative) {
			if (term.phrase) {
				// Excluded only where the phrase really stands: settled on the text.
				checks.push(term);
				continue;
			}
			for (const id of this.#termIds(term)) selected.delete(id);
		}
		const ids = [...selected];
		const at = (id: number): number => this.#docs.get(id)?.updated ?? 0;
		ids.sort((a, b) => (oldestFirst ? at(a) - at(b) || a - b : at(b) - at(a) || b - a));
		return { ids, checks };
	}

	/** Ids that hold all the words of a term (the last one as a prefix when the term says so). */
	#termIds(term: QueryTerm): Set<number> {
		const codes = FIELD_CODES[term.field];
		let result: Set<number> | undefined;
		term.words.forEach((word, i) => {
			const ids = this.#wordIds(codes, word, term.prefix && i === term.words.length - 1);
			if (!result) result = ids;
			else for (const id of result) if (!ids.has(id)) result.delete(id);
		});
		return result ?? new Set();
	}

	#wordIds(codes: readonly Code[], word: string, prefix: boolean): Set<number> {
		const ids = new Set<number>();
		const addAll = (list: readonly number[] | undefined): void => {
			if (list) for (const id of list) ids.add(id);
		};
		if (!prefix) {
			for (const code of codes) addAll(this.#postings.get(`${code}:${word}`));
			return ids;
		}
		for (const [token, list] of this.#postings) {
			if (codes.includes(token[0] as Code) && token.startsWith(word, 2)) addAll(list);
		}
		return ids;
	}
}

/** Whether a row satisfies a phrase term (or, for an excluded phrase, whether it stays). */
export function rowMatches(row: Headline, term: QueryTerm): boolean {
	const texts: (string | undefined)[] = [];
	if (term.field === 'any' || term.field === 'title') texts.push(row.title);
	if (term.field === 'any' || term.field === 'author') texts.push(row.author);
	if (term.field === 'any' || term.field === 'tag') texts.push(...row.tags);
	if (term.field === 'any') {
		texts.push(row.feedTitle);
		const body = row.content || row.excerpt;
		if (body) texts.push(htmlToText(body));
	}
	const found = texts.some(
		(text) => text !== undefined && hasPhrase(text, term.words, term.prefix)
	);
	return term.negated ? !found : found;
}
