import { describe, expect, it } from 'vitest';
import { SPECIAL_FEED } from './feed-ids';
import { viewModeKeeps, type ViewModeRow } from './view-mode';

const row = (patch: Partial<ViewModeRow> = {}): ViewModeRow => ({
	unread: false,
	marked: false,
	published: false,
	note: undefined,
	...patch
});

const kept = (mode: string, rows: ViewModeRow[], context = {}): ViewModeRow[] => {
	const keep = viewModeKeeps(mode, context);
	return keep ? rows.filter(keep) : rows;
};

describe('viewModeKeeps', () => {
	const unread = row({ unread: true });
	const starred = row({ marked: true });
	const published = row({ published: true });
	const noted = row({ note: 'read this' });
	const emptyNote = row({ note: '' });
	const all = [unread, starred, published, noted, emptyNote];

	it('keeps what each mode names', () => {
		expect(kept('unread', all)).toEqual([unread]);
		expect(kept('marked', all)).toEqual([starred]);
		expect(kept('published', all)).toEqual([published]);
		expect(kept('has_note', all)).toEqual([noted]);
		expect(kept('all_articles', all)).toEqual(all);
		expect(kept('updated', all)).toEqual(all);
	});

	it('adaptive: unread when there are some, all in a search or in Starred', () => {
		expect(kept('adaptive', all, { anyUnread: true })).toEqual([unread]);
		expect(kept('adaptive', all, { anyUnread: false })).toEqual(all);
		expect(kept('adaptive', all, { anyUnread: true, searching: true })).toEqual(all);
		expect(kept('adaptive', all, { anyUnread: true, feedId: SPECIAL_FEED.starred })).toEqual(all);
	});

	it('Recently read is not emptied by "unread"', () => {
		expect(kept('unread', all, { feedId: SPECIAL_FEED.recentlyRead })).toEqual(all);
	});
});
