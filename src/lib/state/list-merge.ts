/**
 * Refreshing a list in place: the server's first rows, in its order, merged into the rows already
 * loaded, so the rows below (pages the reader scrolled through) stay where they are.
 *
 * Why not simply put new rows at the top: tt-rss orders a list by score, then by the minute the
 * article was stored (`date_entered`), then by the article's own date — not by id. A feed's first
 * fetch stores its newest item first, so ids above the newest one shown (`since_id`) can be older
 * rows that belong below the loaded part. And in any other order (the feeds' dates, title, oldest
 * first) new rows can land anywhere: only the server's own order places them.
 */

interface Row {
	id: number;
}

/**
 * Merges `top` — the server's first rows, contiguous from its first, in its order — into `rows`,
 * the rows loaded earlier (a prefix of the server's order as it was then). A row of `top` that is
 * not loaded goes just before the next loaded row `top` names; loaded rows keep their own copy
 * (it carries changes made here) and their order; loaded rows `top` does not name (read elsewhere,
 * or below `top`) stay in place.
 */
export function mergeTop<T extends Row>(rows: readonly T[], top: readonly T[]): T[] {
	const at = new Map(rows.map((row, index) => [row.id, index]));
	const merged: T[] = [];
	const placed = new Set<number>();
	let next = 0;
	for (const row of top) {
		const index = at.get(row.id);
		if (index === undefined) {
			if (!placed.has(row.id)) merged.push(row);
			placed.add(row.id);
			continue;
		}
		while (next <= index) merged.push(rows[next++] as T);
	}
	while (next < rows.length) merged.push(rows[next++] as T);
	return merged;
}

/**
 * Whether `top` reaches far enough to be merged without leaving out a row the server lists among
 * the loaded ones. When `arrived` names every row that is new (the default order, where new rows
 * have higher ids and `since_id` finds them all): once it names them all and ends on a loaded row.
 * Otherwise (an order of the reader's, or more new rows than one answer holds): once it names every
 * loaded row the server still lists (`listed`: the view's rule, say unread only).
 */
export function topIsEnough<T extends Row>(
	rows: readonly T[],
	top: readonly Row[],
	options: { arrived?: ReadonlySet<number>; listed?: (row: T) => boolean } = {}
): boolean {
	const named = new Set(top.map((row) => row.id));
	const { arrived, listed } = options;
	const last = top.at(-1);
	if (arrived && last && rows.some((row) => row.id === last.id)) {
		if ([...arrived].every((id) => named.has(id))) return true;
	}
	return rows.every((row) => named.has(row.id) || (listed !== undefined && !listed(row)));
}
