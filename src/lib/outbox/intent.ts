import { SHARED_KEY } from '$lib/api/shared-settings-op';
import type { CatchupMode, Label, SearchMode } from '$lib/api';
import type { ArticleFlag, Intent } from '$lib/db/stored-intent';

// The intent's shape is stored with every queued item, so it is declared where the stored shapes
// are (db/stored-intent.ts); the outbox's rules over it (parsing, names, the refs an action takes) are here.
export type { ArticleFlag, CatchupIntent, Intent } from '$lib/db/stored-intent';

/** What the lists name things by; anything missing falls back to its id. */
export interface IntentNames {
	/** Cached article titles by id. */
	articles: ReadonlyMap<number, string>;
	/** `feed:<id>` / `cat:<id>` → title, as tree/walk.ts `titlesOf` (labels are feeds). */
	titles: ReadonlyMap<string, string>;
}

/** The parts of an article an action needs (a headline row or the open article). */
export interface ArticleRef {
	id: number;
	feedId: number | null;
	unread: boolean;
	marked: boolean;
	published: boolean;
	note: string | undefined;
	labels: Label[];
	/** Whether the article counts as fresh (counters/counts.ts `unreadCounterFeeds`). */
	updated: number;
	score: number;
}

/** Which rows "mark above / below as read" names, from an article of the list. */
export type Side = 'above' | 'below';

const FLAGS: readonly string[] = ['unread', 'starred', 'published'] satisfies ArticleFlag[];
const CATCHUP_MODES: readonly string[] = ['all', '1day', '1week', '2week'] satisfies CatchupMode[];
const SEARCH_MODES: readonly string[] = [
	'all_feeds',
	'this_feed',
	'this_cat'
] satisfies SearchMode[];

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const isIds = (v: unknown): v is number[] => Array.isArray(v) && v.every(isId);
const optional = (v: unknown, test: (v: unknown) => boolean): boolean => v === undefined || test(v);

/**
 * An intent read back from storage a page wrote (the write-ahead journal, state/write-ahead.ts):
 * the intent when `raw` is a whole valid one, else `undefined`.
 */
export function parseIntent(raw: unknown): Intent | undefined {
	if (typeof raw !== 'object' || raw === null) return undefined;
	const r = raw as Record<string, unknown>;
	switch (r.type) {
		case 'flag':
			return typeof r.field === 'string' &&
				FLAGS.includes(r.field) &&
				isIds(r.articleIds) &&
				typeof r.value === 'boolean'
				? (raw as Intent)
				: undefined;
		case 'note':
			return isId(r.articleId) && typeof r.note === 'string' ? (raw as Intent) : undefined;
		case 'label':
			return isIds(r.articleIds) && isId(r.labelId) && typeof r.assign === 'boolean'
				? (raw as Intent)
				: undefined;
		case 'share':
			return typeof r.title === 'string' &&
				typeof r.url === 'string' &&
				typeof r.content === 'string'
				? (raw as Intent)
				: undefined;
		case 'setting':
			return typeof r.key === 'string' &&
				SHARED_KEY.test(r.key) &&
				typeof r.value === 'string' &&
				typeof r.mtime === 'number' &&
				Number.isSafeInteger(r.mtime)
				? (raw as Intent)
				: undefined;
		case 'catchup':
			return (typeof r.feedId === 'number' || typeof r.feedId === 'string') &&
				typeof r.isCat === 'boolean' &&
				typeof r.mode === 'string' &&
				CATCHUP_MODES.includes(r.mode) &&
				optional(r.at, (v) => typeof v === 'number') &&
				optional(r.offline, (v) => typeof v === 'boolean') &&
				optional(r.maxId, isId) &&
				optional(r.unreadSeen, isId) &&
				optional(r.spare, isIds) &&
				optional(r.search, (v) => typeof v === 'string') &&
				optional(r.searchMode, (v) => typeof v === 'string' && SEARCH_MODES.includes(v)) &&
				optional(r.seenIds, isIds)
				? (raw as Intent)
				: undefined;
		default:
			return undefined;
	}
}

/** Whether the intent marks an article unread: the one change a catch-up landing late undoes. */
export function marksUnread(intent: Intent): boolean {
	return intent.type === 'flag' && intent.field === 'unread' && intent.value;
}
