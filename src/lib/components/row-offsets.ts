/**
 * Where each row of the virtual list (VirtualList.svelte) sits: one height for every row, or each
 * row its own (a card without an image is shorter than one with: row-heights.ts). The list, the
 * open article's scroll and a start's kept place (state/resume.ts) all read positions from here.
 */
export interface RowOffsets {
	readonly count: number;
	/** The rows' whole height. */
	readonly total: number;
	/** Row `index`'s top edge; `count` gives the end of the last row. */
	top(index: number): number;
	height(index: number): number;
	/** The row an offset falls in (0 above the first, `count` past the last). */
	indexAt(offset: number): number;
}

/** Every row `height` tall. */
export function uniformOffsets(count: number, height: number): RowOffsets {
	return {
		count,
		total: count * height,
		top: (index) => index * height,
		height: () => height,
		indexAt: (offset) => Math.min(count, Math.max(0, Math.floor(offset / height)))
	};
}

/** Each row its own height, in order. */
export function rowOffsets(heights: readonly number[]): RowOffsets {
	const count = heights.length;
	const tops = new Float64Array(count + 1);
	for (let i = 0; i < count; i++) tops[i + 1] = (tops[i] ?? 0) + (heights[i] ?? 0);
	return {
		count,
		total: tops[count] ?? 0,
		top: (index) => tops[Math.min(count, Math.max(0, index))] ?? 0,
		height: (index) => heights[index] ?? 0,
		indexAt(offset) {
			if (offset < 0) return 0;
			// The last row whose top is at or above the offset.
			let low = 0;
			let high = count;
			while (low < high) {
				const mid = (low + high + 1) >> 1;
				if ((tops[mid] ?? 0) <= offset) low = mid;
				else high = mid - 1;
			}
			return low;
		}
	};
}
