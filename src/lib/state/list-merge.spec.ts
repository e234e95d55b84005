import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeTop, topIsEnough } from './list-merge';

const rows = (...ids: number[]) => ids.map((id) => ({ id }));
const ids = (list: readonly { id: number }[]) => list.map((row) => row.id);

describe('mergeTop', () => {
	it('puts new rows before the loaded row the server lists after them', () => {
		// Loaded: 1, 2, then rows below the server's first ones (5, 6). 3 and 4 arrived between.
		expect(ids(mergeTop(rows(1, 2, 5, 6), rows(1, 3, 2, 4, 5)))).toEqual([1, 3, 2, 4, 5, 6]);
	});

	it('keeps the loaded copy of a row, and rows the server no longer lists', () => {
		const loaded = [
			{ id: 1, unread: false },
			{ id: 2, unread: true }
		];
		const merged = mergeTop(loaded, [
			{ id: 9, unread: true },
			{ id: 1, unread: true }
		]);
		expect(merged).toEqual([{ id: 9, unread: true }, ...loaded]);
	});

	it('leaves rows the server has moved where they were loaded', () => {
		expect(ids(mergeTop(rows(1, 2, 3), rows(3, 7, 1)))).toEqual([1, 2, 3, 7]);
	});

	// The server's list changes only by rows arriving (anywhere) and rows leaving it (read
	// elsewhere); the loaded rows are a prefix of the list as it was. Merged with any long enough
	// prefix of the list as it is, every row of that prefix is in the server's order, every loaded
	// row is kept, and nothing is doubled.
	it('orders every row the server sent as the server does (property)', () => {
		fc.assert(
			fc.property(
				fc.uniqueArray(fc.integer({ min: 1, max: 500 }), { minLength: 1, maxLength: 60 }),
				fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }),
				fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }),
				fc.nat(60),
				fc.nat(60),
				(order, arrivedLater, leftLater, loadedCount, topCount) => {
					const before = order.filter((_, i) => !arrivedLater[i]);
					const after = order.filter((_, i) => arrivedLater[i] || !leftLater[i]);
					const loaded = rows(...before.slice(0, loadedCount));
					const top = rows(...after.slice(0, topCount));
					const merged = ids(mergeTop(loaded, top));
					expect(new Set(merged).size).toBe(merged.length);
					expect(merged.filter((id) => top.some((row) => row.id === id))).toEqual(ids(top));
					for (const row of loaded) expect(merged).toContain(row.id);
				}
			)
		);
	});
});

describe('topIsEnough', () => {
	it('with every new row known: once they are all placed and the rows end on a loaded one', () => {
		const loaded = rows(1, 2, 3);
		const arrived = new Set([9, 7]);
		expect(topIsEnough(loaded, rows(9, 1), { arrived })).toBe(false);
		expect(topIsEnough(loaded, rows(9, 1, 7), { arrived })).toBe(false);
		expect(topIsEnough(loaded, rows(9, 1, 7, 2), { arrived })).toBe(true);
	});

	it('otherwise: once every loaded row the server still lists is among them', () => {
		const loaded = [
			{ id: 1, unread: true },
			{ id: 2, unread: false },
			{ id: 3, unread: true }
		];
		expect(topIsEnough(loaded, rows(9, 1, 8))).toBe(false);
		expect(topIsEnough(loaded, rows(9, 1, 8, 3))).toBe(false);
		// Row 2 was read: the unread list no longer holds it.
		expect(topIsEnough(loaded, rows(9, 1, 8, 3), { listed: (row) => row.unread })).toBe(true);
		// 7 arrived below the loaded rows: paging brings it.
		expect(topIsEnough(loaded, rows(9, 1, 2, 3), { arrived: new Set([9, 7]) })).toBe(true);
	});
});
