/**
 * Full text (issue 59): per article, whether the reader asked for it, the extraction while it
 * comes and after, or why there is none. The article bar's "Full text" toggles it; the article
 * shows it in place of the feed's text (ArticleReading.svelte) with a way back. A kept copy (the
 * sync keeps full text of the feeds set to it, sync/full-text-step.ts) answers first, offline too.
 */
import type { ExtractedArticle } from '$lib/content/extract';
import { FullTextError, type FullTextProblem } from '$lib/content/full-text-error';
import { keptFullText } from '$lib/cache/kept-full-text';
import { session } from './session.svelte';
import { onAccountEvent } from '$lib/db/account-events';
import { m } from '$lib/i18n/m';
import { fullTextFeeds, setFullTextFeed } from '$lib/offline/full-text-feeds';
import { lazyModule } from '$lib/perf/lazy';

/** The full-text worker's client, loaded at the first tap (content/full-text-client.ts). */
const fetchFullText = lazyModule(() => import('$lib/content/full-text-client')).soon(
	'fetchFullText'
);

/** What an article's full text is now. */
export type FullTextEntry =
	| { status: 'loading' }
	| { status: 'shown'; article: ExtractedArticle }
	| { status: 'hidden'; article: ExtractedArticle }
	| { status: 'failed'; problem: FullTextProblem };

/** The article as the full-text bar needs it. */
export interface FullTextSource {
	id: number;
	pageUrl?: string | undefined;
	/** Present where the plugin's hook saw the row (it signed its images, or none). */
	signedImages?: Readonly<Record<string, string>> | undefined;
}

/** Extractions kept in memory (the last ones read; the kept copies live in IndexedDB). */
const KEPT_IN_MEMORY = 12;

/** Reading time: words a minute of an unhurried reader. */
const WORDS_PER_MINUTE = 230;

export function readingMinutes(words: number): number {
	return Math.max(1, Math.round(words / WORDS_PER_MINUTE));
}

/**
 * The page address from the server's copy of the article, for a row that came without it: the
 * current tt-rss runs the plugin's hook on getHeadlines rows only when they carry their body, and
 * on every getArticle answer (Debian's on both). Undefined where the server has none to give.
 */
async function serverPageUrl(id: number): Promise<string | undefined> {
	try {
		const answered = await (await session.api()).getArticle({ articleIds: [id], sanitize: true });
		return answered.find((a) => a.id === id)?.pageUrl;
	} catch {
		return undefined;
	}
}

class FullTextState {
	#entries = $state.raw<ReadonlyMap<number, FullTextEntry>>(new Map());
	#asking = new Map<number, AbortController>();

	entry(id: number): FullTextEntry | undefined {
		return this.#entries.get(id);
	}

	showing(id: number): boolean {
		return this.#entries.get(id)?.status === 'shown';
	}

	#set(id: number, entry: FullTextEntry | undefined): void {
		// A fresh copy set whole into the $state.raw above: never changed after it is set.
		// eslint-disable-next-line svelte/prefer-svelte-reactivity
		const next = new Map(this.#entries);
		next.delete(id);
		if (entry) next.set(id, entry);
		// The oldest extractions go first (a Map keeps the order they were set in).
		for (const key of next.keys()) {
			if (next.size <= KEPT_IN_MEMORY) break;
			if (key !== id) next.delete(key);
		}
		this.#entries = next;
	}

	/** The article bar's button: full text on (fetched when not had), or back to the feed's text. */
	toggle(source: FullTextSource): void {
		const entry = this.#entries.get(source.id);
		if (entry?.status === 'shown')
			this.#set(source.id, { status: 'hidden', article: entry.article });
		else if (entry?.status === 'hidden')
			this.#set(source.id, { status: 'shown', article: entry.article });
		else if (entry?.status !== 'loading') void this.show(source);
	}

	/** The feeds set to "Always show full text", of the account they were read for. */
	#feeds = $state.raw<ReadonlySet<number>>(new Set());
	#feedsOf: string | undefined;

	/** Reads the account's full-text feeds (once per account). */
	async loadFeeds(account: string): Promise<void> {
		if (this.#feedsOf === account) return;
		this.#feedsOf = account;
		const feeds = new Set(await fullTextFeeds(account).catch(() => []));
		if (this.#feedsOf === account) this.#feeds = feeds;
	}

	/** Whether the feed is set to "Always show full text". */
	always(feedId: number | null): boolean {
		return feedId !== null && this.#feeds.has(feedId);
	}

	/** The feed settings sheet's switch: kept for the sync, which keeps those feeds' full text. */
	async setAlways(account: string, feedId: number, on: boolean): Promise<void> {
		await setFullTextFeed(account, feedId, on);
		const others = [...this.#feeds].filter((id) => id !== feedId);
		if (this.#feedsOf === account) this.#feeds = new Set(on ? [...others, feedId] : others);
	}

	/** An article of a full-text feed opened: its full text, unless the reader already chose. */
	autoShow(source: FullTextSource & { feedId: number | null }): void {
		if (this.always(source.feedId) && !this.#entries.has(source.id)) void this.show(source);
	}

	/** Shows the article's full text: the kept copy, else the plugin's page extracted. */
	async show(source: FullTextSource): Promise<void> {
		const { id } = source;
		const had = this.#entries.get(id);
		if (had?.status === 'shown' || had?.status === 'loading') return;
		if (had?.status === 'hidden') {
			this.#set(id, { status: 'shown', article: had.article });
			return;
		}
		this.#set(id, { status: 'loading' });
		const kept = await keptFullText(id).catch(() => undefined);
		if (kept) {
			if (this.#entries.get(id)?.status === 'loading')
				this.#set(id, { status: 'shown', article: kept });
			return;
		}
		const controller = new AbortController();
		this.#asking.set(id, controller);
		try {
			const pageUrl = source.pageUrl ?? (await serverPageUrl(id));
			const article = await fetchFullText(pageUrl, controller.signal, session.apiUrl);
			if (this.#entries.get(id)?.status === 'loading') this.#set(id, { status: 'shown', article });
		} catch (error) {
			const problem = error instanceof FullTextError ? error.problem : 'no_article';
			if (problem === 'aborted') return;
			if (this.#entries.get(id)?.status === 'loading') this.#set(id, { status: 'failed', problem });
		} finally {
			this.#asking.delete(id);
		}
	}

	/**
	 * Forgets one article's full text (to ask again), or everything (sign-out, another account:
	 * nothing of one account shows for another).
	 */
	reset(id?: number): void {
		if (id !== undefined) {
			this.#asking.get(id)?.abort();
			this.#set(id, undefined);
			return;
		}
		for (const controller of this.#asking.values()) controller.abort();
		this.#asking.clear();
		this.#entries = new Map();
		this.#feeds = new Set();
		this.#feedsOf = undefined;
	}
}

export const fullText = new FullTextState();
onAccountEvent(() => fullText.reset());

/**
 * What the reader is told when there is no full text, and what to do; `source` tells a server
 * without the plugin from one whose plugin did not offer this page.
 */
export function fullTextProblemText(problem: FullTextProblem, source: FullTextSource): string {
	switch (problem) {
		case 'timeout':
			return m.article_fulltext_timeout();
		case 'too_large':
			return m.article_fulltext_too_large();
		case 'refused':
			return m.article_fulltext_refused();
		case 'not_html':
			return m.article_fulltext_not_html();
		case 'unreachable':
			return m.article_fulltext_unreachable();
		case 'offline':
			return m.article_fulltext_offline();
		case 'network':
		case 'slow':
			return m.article_fulltext_network();
		case 'no_plugin':
			return source.signedImages !== undefined
				? m.article_fulltext_not_offered()
				: m.article_fulltext_no_plugin();
		case 'no_article':
			return m.article_fulltext_no_article();
		case 'bad_reply':
		case 'aborted':
			return m.article_fulltext_bad_reply();
	}
}
