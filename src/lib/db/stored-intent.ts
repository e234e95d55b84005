/**
 * What the reader meant, as the outbox stores it: every queued and failed item carries one
 * (schema.ts `OutboxItem`, `FailedItem`), so the type lives with the stored shapes, below the
 * outbox that makes, applies and sends it (outbox/intent.ts re-exports it with its rules).
 */
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
			/** Made while the device was offline: never sent as "fresh" (outbox/replay.ts). */
			offline?: boolean;
			/**
			 * The highest article id the reader could see in that scope when they caught up (set by
			 * enqueueIntent from the cache and the rows on screen). A catch-up sent late covers these and,
			 * by `unreadSeen`, the older ones not loaded, never what arrived since (outbox/replay.ts).
			 */
			maxId?: number;
			/**
			 * The scope's unread count the reader saw (its counter). Articles arrive with ever higher
			 * ids, so the lowest that many unread ids are ones that existed then, loaded or not.
			 */
			unreadSeen?: number;
			/** The search the list showed (server syntax): only its matches are marked. */
			search?: string;
			searchMode?: SearchMode;
			/** With a search: the matching rows the reader had loaded (the cache cannot search). */
			seenIds?: number[];
			/**
			 * Articles of the scope the reader had just marked unread that their list did not show
			 * (asked before that change reached the server): the catch-up leaves them unread, and is
			 * then sent by ids, not as one catchupFeed (outbox/replay-send.ts). Chaos seed 4700120.
			 */
			spare?: number[];
	  }
	| { type: 'share'; title: string; url: string; content: string }
	/**
	 * One of the reader's settings kept by the Reader plugin (issue 60, sync/shared-settings.ts):
	 * its key, its value as JSON text and when the reader changed it (ms). Sent to the plugin's
	 * shared_settings method, where the later change of the key wins.
	 */
	| { type: 'setting'; key: string; value: string; mtime: number };

/** A catch-up: the one intent whose scope is a feed, category or search, not listed articles. */
export type CatchupIntent = Extract<Intent, { type: 'catchup' }>;
