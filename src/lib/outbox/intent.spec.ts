import { describe, expect, it } from 'vitest';
import { describeIntent } from './describe';
import type { IntentNames } from './intent';

const names: IntentNames = {
	articles: new Map([[123, 'Big feed item 001 (beta)']]),
	titles: new Map([
		['feed:-1027', 'Later'],
		['feed:6', 'Testbed Big Feed'],
		['cat:2', 'Web']
	])
};

describe('describeIntent', () => {
	it('names articles, labels and feeds from the cache', () => {
		expect(
			describeIntent({ type: 'label', articleIds: [123], labelId: -1027, assign: true }, names)
		).toBe('Add label “Later” to “Big feed item 001 (beta)”');
		expect(
			describeIntent({ type: 'flag', field: 'starred', articleIds: [123], value: true }, names)
		).toBe('Mark “Big feed item 001 (beta)” starred');
		expect(describeIntent({ type: 'note', articleId: 123, note: 'x' }, names)).toBe(
			'Note on “Big feed item 001 (beta)”'
		);
	});

	it('falls back to ids for what the cache does not know', () => {
		expect(
			describeIntent({ type: 'label', articleIds: [7], labelId: -1030, assign: false }, names)
		).toBe('Remove label -1030 from article 7');
		expect(describeIntent({ type: 'catchup', feedId: 9, isCat: true, mode: 'all' }, names)).toBe(
			'Mark read the articles of category 9'
		);
	});

	it('says what a catch-up will do: the articles the reader could see, when', () => {
		const at = Date.UTC(2026, 10, 23, 14, 2);
		const text = describeIntent(
			{ type: 'catchup', feedId: 6, isCat: false, mode: 'all', at, maxId: 300 },
			names,
			'en-GB'
		);
		expect(text).toMatch(/^Mark read the articles of “Testbed Big Feed” you could see on 23 Nov/);
		expect(
			describeIntent(
				{ type: 'catchup', feedId: 2, isCat: true, mode: '1week', search: 'title:beta' },
				names
			)
		).toBe('Mark read the articles of “Web” matching “title:beta” older than a week');
	});
});
