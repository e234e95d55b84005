import { describe, expect, it } from 'vitest';
import { DEFAULT_SWIPES, parseSwipes, swipes } from './swipe.svelte';

const row = { id: 1, title: 'T', unread: true, marked: false, published: false, labels: [] };

describe('swipe settings', () => {
	it('keep only known actions from storage, else the defaults', () => {
		expect(parseSwipes(null)).toEqual(DEFAULT_SWIPES);
		expect(parseSwipes('{"left":"none","right":"label:-1026"}')).toEqual({
			left: 'none',
			right: 'label:-1026'
		});
		expect(parseSwipes('{"left":"delete","right":"label:5"}')).toEqual(DEFAULT_SWIPES);
		expect(parseSwipes('not json')).toEqual(DEFAULT_SWIPES);
	});

	it('hint what letting go does on this row; a side set to nothing shows none', () => {
		swipes.reset();
		expect(swipes.hint('left', row)).toEqual({ text: 'Mark read', icon: '✓', tone: 'read' });
		expect(swipes.hint('right', { ...row, marked: true })?.text).toBe('Unstar');
		swipes.update({ left: 'none', right: 'publish' });
		expect(swipes.hint('left', row)).toBeUndefined();
		expect(swipes.hint('right', row)?.text).toBe('Publish');
		// A label nobody knows (not in the tree, not on the row): nothing to do, no hint.
		swipes.update({ right: 'label:-1099' });
		expect(swipes.hint('right', row)).toBeUndefined();
		expect(
			swipes.hint('right', {
				...row,
				labels: [{ id: -1099, caption: 'Later', fgColor: '', bgColor: '' }]
			})?.text
		).toBe('Remove “Later”');
		swipes.reset();
	});
});
