import { describe, expect, it } from 'vitest';
import { rowOffsets, uniformOffsets } from './row-offsets';

describe('row offsets', () => {
	it('uniform rows: index × height', () => {
		const rows = uniformOffsets(10, 100);
		expect(rows.total).toBe(1000);
		expect(rows.top(3)).toBe(300);
		expect(rows.indexAt(0)).toBe(0);
		expect(rows.indexAt(299)).toBe(2);
		expect(rows.indexAt(300)).toBe(3);
		expect(rows.indexAt(5000)).toBe(10);
		expect(rows.indexAt(-5)).toBe(0);
	});

	it('rows of their own heights: tops are the sums above, an offset finds its row', () => {
		const rows = rowOffsets([280, 130, 130, 280]);
		expect(rows.total).toBe(820);
		expect([0, 1, 2, 3, 4].map((i) => rows.top(i))).toEqual([0, 280, 410, 540, 820]);
		expect(rows.height(1)).toBe(130);
		expect(rows.indexAt(0)).toBe(0);
		expect(rows.indexAt(279)).toBe(0);
		expect(rows.indexAt(280)).toBe(1);
		expect(rows.indexAt(409)).toBe(1);
		expect(rows.indexAt(410)).toBe(2);
		expect(rows.indexAt(819)).toBe(3);
		expect(rows.indexAt(820)).toBe(4);
		expect(rows.indexAt(-1)).toBe(0);
		expect(rowOffsets([]).indexAt(10)).toBe(0);
	});

	it('agrees with the uniform rule when every row is one height', () => {
		const same = rowOffsets(Array.from({ length: 50 }, () => 58));
		const uniform = uniformOffsets(50, 58);
		for (const offset of [0, 1, 57, 58, 59, 1000, 2899, 2900, 4000]) {
			expect(same.indexAt(offset)).toBe(uniform.indexAt(offset));
		}
	});
});
