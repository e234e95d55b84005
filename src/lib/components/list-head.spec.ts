import { describe, expect, it } from 'vitest';
import { catchupChoices, catchupText, categoryScopeTitle, searchScopes } from './list-head';

describe('the headline list’s head', () => {
	it('offers catch-ups by age only where the server takes a mode', () => {
		expect(catchupChoices(false).map((c) => c.value)).toEqual(['all']);
		expect(catchupChoices(undefined).map((c) => c.value)).toEqual(['all']);
		expect(catchupChoices(true).map((c) => c.value)).toEqual(['all', '1day', '1week', '2week']);
	});

	it('names the open feed’s category for its search, Uncategorized for 0, none without one', () => {
		expect(categoryScopeTitle(1, 'Tech')).toBe('Tech');
		expect(categoryScopeTitle(0, undefined)).toBe('Uncategorized');
		expect(categoryScopeTitle(9, undefined)).toBe('this category');
		expect(categoryScopeTitle(undefined, 'Tech')).toBeUndefined();
	});

	it('searches this list, its feed’s category when it has one, or every feed', () => {
		expect(searchScopes('feed', 'Tech')).toEqual([
			{ value: 'this_feed', label: 'This feed' },
			{ value: 'this_cat', label: 'Category: Tech' },
			{ value: 'all_feeds', label: 'All feeds' }
		]);
		expect(searchScopes('cat', undefined).map((s) => s.label)).toEqual([
			'This category',
			'All feeds'
		]);
	});

	it('a catch-up’s Undo says when only a search’s matches were marked', () => {
		expect(catchupText('', 'Tech news')).toContain('Tech news');
		expect(catchupText('rust', 'Tech news')).toContain('rust');
		expect(catchupText('rust', 'Tech news')).not.toContain('Tech news');
	});
});
