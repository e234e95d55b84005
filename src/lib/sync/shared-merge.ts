/**
 * The rule two devices' changes of one shared item settle by (issue 60; the same rule as the
 * plugin's `shared_merge` in package/shared-settings.php, which is the authority): the later
 * change wins; on the same millisecond, the larger JSON text (by code point, which is UTF-8's byte
 * order, as PHP's strcmp compares). The item keeps, as `replaced`, the highest record whose value
 * differs from the winner's, so the reader can see what a change replaced. Merging is commutative,
 * associative and idempotent: the items are the top two distinct values of every change seen.
 */
import type { SharedItem, SharedItems, SharedRecord } from '$lib/api/shared-settings-op';

function compareCodePoints(a: string, b: string): number {
	const x = [...a];
	const y = [...b];
	for (let i = 0; i < Math.min(x.length, y.length); i++) {
		const d = (x[i]?.codePointAt(0) ?? 0) - (y[i]?.codePointAt(0) ?? 0);
		if (d !== 0) return d;
	}
	return x.length - y.length;
}

/** Positive when `a` wins over `b`. */
export function rankRecords(a: SharedRecord, b: SharedRecord): number {
	return a.mtime - b.mtime || compareCodePoints(a.value, b.value);
}

/** The merge of two versions of one item (either may be missing). */
export function mergeItem(
	a: SharedItem | undefined,
	b: SharedItem | undefined
): SharedItem | undefined {
	const records: SharedRecord[] = [];
	for (const item of [a, b]) {
		if (!item) continue;
		records.push({ value: item.value, mtime: item.mtime });
		if (item.replaced) records.push(item.replaced);
	}
	records.sort((x, y) => rankRecords(y, x));
	const top = records[0];
	if (!top) return undefined;
	const replaced = records.find((record) => record.value !== top.value);
	return replaced ? { ...top, replaced: { ...replaced } } : { ...top };
}

/** Every item of both maps, merged per key. */
export function mergeItems(a: SharedItems, b: SharedItems): SharedItems {
	const out: SharedItems = {};
	for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
		const merged = mergeItem(a[key], b[key]);
		if (merged) out[key] = merged;
	}
	return out;
}
