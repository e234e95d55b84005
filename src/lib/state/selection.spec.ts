import { beforeEach, describe, expect, it } from 'vitest';
import { selection } from './selection.svelte';

const rows = [1, 2, 3, 4, 5, 6].map((id) => ({ id }));

beforeEach(() => {
	selection.reset();
	selection.follow('feed/1');
});

describe('selection', () => {
	it('toggles rows by id and is active while anything is selected', () => {
		expect(selection.active).toBe(false);
		selection.toggle(3);
		selection.toggle(5);
		expect(selection.active).toBe(true);
		expect(selection.count).toBe(2);
		expect(selection.has(3)).toBe(true);
		selection.toggle(3);
		expect([...selection.ids]).toEqual([5]);
		selection.toggle(5);
		expect(selection.active).toBe(false);
	});

	it('selects a range from the last row toggled on, either way', () => {
		selection.toggle(2);
		selection.range(5, rows);
		expect(selection.pick(rows).map((r) => r.id)).toEqual([2, 3, 4, 5]);
		selection.clear();
		selection.toggle(5);
		selection.range(3, rows);
		expect(selection.pick(rows).map((r) => r.id)).toEqual([3, 4, 5]);
	});

	it('a range without a start selects just that row', () => {
		selection.range(4, rows);
		expect([...selection.ids]).toEqual([4]);
		// A start that is not loaded any more: just the row too.
		selection.clear();
		selection.toggle(99);
		selection.range(2, rows);
		expect([...selection.ids].sort()).toEqual([2, 99]);
	});

	it('selects every loaded row, and keeps rows that are not on screen (virtual list)', () => {
		selection.toggle(42);
		selection.selectAll(rows);
		expect(selection.count).toBe(7);
		// The picked rows are the ones in the given list, in its order.
		expect(selection.pick([{ id: 6 }, { id: 42 }, { id: 8 }]).map((r) => r.id)).toEqual([6, 42]);
	});

	it('is cleared when another list opens, not when the same one is shown again', () => {
		selection.toggle(1);
		selection.follow('feed/1');
		expect(selection.count).toBe(1);
		selection.follow('feed/2');
		expect(selection.active).toBe(false);
	});
});
