import type { TreeCategory } from '$lib/api';
import type { UnreadCounts } from '$lib/counters/counts';

/** Whether a category (or anything below it) has unread articles, for "hide read feeds". */
export function categoryHasUnread(category: TreeCategory, counts: UnreadCounts): boolean {
	if ((counts.categories.get(category.id) ?? 0) > 0) return true;
	return (
		category.feeds.some((f) => (counts.feeds.get(f.id) ?? f.unread ?? 0) > 0) ||
		category.categories.some((c) => categoryHasUnread(c, counts))
	);
}
