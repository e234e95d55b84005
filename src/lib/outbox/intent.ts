import type { CatchupMode, FeedId, SearchMode } from '$lib/api';

/** An article flag the reader can set: each intent names the target value, never a toggle. */
export type ArticleFlag = 'unread' | 'starred' | 'published';

/**
 * What the reader meant to do, recorded with an absolute target so that replaying it twice is
 * harmless and replay order cannot flip a flag.
 */
export type Intent =
	| { type: 'flag'; field: ArticleFlag; articleIds: number[]; value: boolean }
	| { type: 'note'; articleId: number; note: string }
	| { type: 'label'; articleIds: number[]; labelId: number; assign: boolean }
	| {
			type: 'catchup';
			feedId: FeedId;
			isCat: boolean;
			mode: CatchupMode;
			/** When the reader caught up (ms); set by submitIntent. Scopes `1day`… on both sides. */
			at?: number;
			/**
			 * The highest article id the reader could see in that scope when they caught up (set by
			 * enqueueIntent from the cache and the rows on screen). Replay marks nothing above it, so a
			 * catch-up sent days later does not cover what arrived since. Absent: nothing was known.
			 */
			maxId?: number;
			/** The search the list showed (server syntax): only its matches are marked. */
			search?: string;
			searchMode?: SearchMode;
			/** With a search: the matching rows the reader had loaded (the cache cannot search). */
			seenIds?: number[];
	  }
	| { type: 'share'; title: string; url: string; content: string };

/** A short description for the pending/failed lists ("Mark 3 articles read"). */
export function describeIntent(intent: Intent): string {
	const n = (ids: readonly number[]): string =>
		ids.length === 1 ? `article ${ids[0]}` : `${ids.length} articles`;
	switch (intent.type) {
		case 'flag': {
			const what =
				intent.field === 'unread'
					? intent.value
						? 'unread'
						: 'read'
					: intent.field === 'starred'
						? intent.value
							? 'starred'
							: 'not starred'
						: intent.value
							? 'published'
							: 'not published';
			return `Mark ${n(intent.articleIds)} ${what}`;
		}
		case 'note':
			return intent.note === ''
				? `Remove the note of article ${intent.articleId}`
				: `Note on article ${intent.articleId}`;
		case 'label':
			return `${intent.assign ? 'Add' : 'Remove'} label ${intent.labelId} ${intent.assign ? 'to' : 'from'} ${n(intent.articleIds)}`;
		case 'catchup':
			return `Mark ${intent.isCat ? 'category' : 'feed'} ${String(intent.feedId)} read${intent.mode === 'all' ? '' : ` (older than ${intent.mode.replace('1', '1 ').replace('2', '2 ')})`}`;
		case 'share':
			return `Share "${intent.title}"`;
	}
}
