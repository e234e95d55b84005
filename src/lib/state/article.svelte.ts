import type { Article, Headline } from '$lib/api';
import { cachedArticle } from '$lib/cache/cache-reads';
import { storeArticles } from './cache-writes';
import { withQueuedChanges } from '$lib/outbox/outbox';
import { headlines, pickPatch, type ArticlePatch } from './headlines.svelte';
import { session } from './session.svelte';
import { errorMessage } from './tree.svelte';
import { m } from '$lib/i18n/m';
import { onAccountEvent } from '$lib/db/account-events';

/** An article as the reader sees it: the body from getArticle, tags and comment count from its headline. */
export interface OpenArticle extends Article {
	tags: string[];
	/** 0 when unknown (getArticle does not send it). */
	commentsCount: number;
}

function fromHeadline(h: Headline): OpenArticle {
	return { ...h, comments: h.commentsLink, tags: h.tags, commentsCount: h.commentsCount };
}

/** The open article; its flags follow the headline row when the row is loaded. */
class ArticleState {
	#id = $state<number | undefined>();
	#article = $state.raw<OpenArticle | undefined>();
	#error = $state<string | undefined>();

	get id(): number | undefined {
		return this.#id;
	}

	/** The row in the list wins for flags: actions change both, the row is what the list shows. */
	get article(): OpenArticle | undefined {
		const article = this.#article;
		if (!article) return undefined;
		const row = headlines.find(article.id);
		return row
			? { ...article, ...pickPatch(row), tags: row.tags, commentsCount: row.commentsCount }
			: article;
	}

	get error(): string | undefined {
		return this.#error;
	}

	/** Cache first, then the server; the headline row fills the screen while the body loads. */
	async open(id: number): Promise<void> {
		if (this.#id === id && this.#article) return;
		this.#id = id;
		this.#error = undefined;
		const row = headlines.find(id);
		this.#article = row ? fromHeadline(row) : undefined;
		const cached = await cachedArticle(id);
		if (cached && this.#id === id)
			this.#article = {
				...cached,
				tags: this.#article?.tags ?? [],
				commentsCount: this.#article?.commentsCount ?? 0
			};
		try {
			const askedAt = Date.now();
			// The one asked for, by id: a reply is outside input, and must not show another article.
			const answered = (
				await (await session.api()).getArticle({ articleIds: [id], sanitize: true })
			).find((a) => a.id === id);
			if (this.#id !== id) return;
			if (!answered) {
				this.#error = m.article_gone();
				return;
			}
			// Opened without its row (a notification, a link): the reader's changes not sent yet
			// (or sent after the ask) stay on screen.
			const [queued = answered] = await withQueuedChanges([answered], askedAt);
			if (this.#id !== id) return;
			// And a change the reader made since the ask stays (one read after the queued changes).
			const shown = headlines.readArticleOver(queued, this.#article, askedAt);
			const row = headlines.find(id);
			this.#article = {
				...shown,
				tags: this.#article?.tags ?? row?.tags ?? [],
				commentsCount: this.#article?.commentsCount ?? row?.commentsCount ?? 0
			};
			await storeArticles([answered], askedAt);
		} catch (error) {
			if (this.#id === id) this.#error = errorMessage(error);
		}
	}

	patch(id: number, patch: ArticlePatch): void {
		if (this.#article?.id === id) this.#article = { ...this.#article, ...patch };
	}

	close(): void {
		this.#id = undefined;
		this.#article = undefined;
		this.#error = undefined;
	}
}

export const articleState = new ArticleState();
onAccountEvent(() => articleState.close());
