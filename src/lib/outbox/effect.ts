/**
 * The one rule for what an intent does to an article before the server confirms it (the unread
 * counters that move with it: counters/counts.ts). Pure, so the page's memory (state/actions.ts)
 * and the cached copy in IndexedDB (outbox/apply.ts) cannot drift apart.
 */
import { type ArticleBase, type CatchupMode, type Label } from '$lib/api';
import type { Intent, CatchupIntent } from './intent';

/** The article fields an intent can change. */
export type ArticleChange = Partial<
	Pick<ArticleBase, 'unread' | 'marked' | 'published' | 'note' | 'labels'>
>;

export type ArticleIntent = Extract<Intent, { type: 'flag' | 'note' | 'label' }>;

const FLAG_FIELD = { unread: 'unread', starred: 'marked', published: 'published' } as const;

/**
 * The change an article intent makes to one article, or undefined when it does not name it.
 * `labelOf` supplies an assigned label's caption and colours (the page knows them, the cache looks
 * them up in the stored tree); a label neither knows is shown by its id.
 */
export function articleChange(
	intent: ArticleIntent,
	article: Pick<ArticleBase, 'id' | 'labels'>,
	labelOf: (labelId: number) => Label | undefined = () => undefined
): ArticleChange | undefined {
	switch (intent.type) {
		case 'flag':
			if (!intent.articleIds.includes(article.id)) return undefined;
			return { [FLAG_FIELD[intent.field]]: intent.value };
		case 'note':
			if (intent.articleId !== article.id) return undefined;
			return { note: intent.note === '' ? undefined : intent.note };
		case 'label': {
			if (!intent.articleIds.includes(article.id)) return undefined;
			const others = article.labels.filter((l) => l.id !== intent.labelId);
			if (!intent.assign) return { labels: others };
			const label = labelOf(intent.labelId) ?? {
				id: intent.labelId,
				caption: `Label ${intent.labelId}`,
				fgColor: '',
				bgColor: ''
			};
			return { labels: [...others, label] };
		}
	}
}

/** Seconds before the catch-up's time that `1day`/`1week`/`2week` leave unread. */
export const CATCHUP_AGE_SECONDS: Readonly<Partial<Record<CatchupMode, number>>> = {
	'1day': 86_400,
	'1week': 7 * 86_400,
	'2week': 14 * 86_400
};

/**
 * Whether an article of the catch-up's scope is one the catch-up meant: not newer than what the
 * reader could see (`maxId`), not one it spares (`spare`: just marked unread, not in their list)
 * and, for `1day`/`1week`/`2week`, older than that by its article date (`updated`). The one rule
 * for every side: the rows on screen, the cached articles, and the replay over the server's unread
 * headlines of the scope (the server's own modes count from the date it stored the article, which
 * the reader never saw, so replay never sends them).
 */
export function withinCatchup(
	intent: Pick<CatchupIntent, 'maxId' | 'spare' | 'mode' | 'at'>,
	article: Pick<ArticleBase, 'id' | 'updated'>
): boolean {
	if (intent.maxId !== undefined && article.id > intent.maxId) return false;
	if (intent.spare?.includes(article.id)) return false;
	const age = CATCHUP_AGE_SECONDS[intent.mode];
	return age === undefined || article.updated <= (intent.at ?? Date.now()) / 1000 - age;
}
