import type { CatchupMode, FeedId } from '$lib/api';

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
	| { type: 'catchup'; feedId: FeedId; isCat: boolean; mode: CatchupMode }
	| { type: 'share'; title: string; url: string; content: string };
