/**
 * The headline list's rows as changes reach them, pure: the reader's own change, a read of stored
 * or server state (which must not undo a change the reader made after it), and pages appended.
 */
import type { Headline } from '$lib/api';
import type { ArticlePatch } from './list-query';

export function pickPatch(h: ArticlePatch): ArticlePatch {
	return {
		unread: h.unread,
		marked: h.marked,
		published: h.published,
		note: h.note,
		labels: h.labels
	};
}

/** The rows with the reader's change applied to those with these ids. */
export function patchRows(
	items: Headline[],
	ids: readonly number[],
	patch: ArticlePatch
): Headline[] {
	return patchRowsEach(
		items,
		ids.map((id) => ({ id, patch }))
	);
}

/** The rows with each change applied to the row with its id (a later change to one id on top). */
export function patchRowsEach(
	items: Headline[],
	changes: readonly { id: number; patch: ArticlePatch }[]
): Headline[] {
	const wanted = new Map<number, ArticlePatch>();
	for (const { id, patch } of changes) wanted.set(id, { ...wanted.get(id), ...patch });
	return items.map((h) => {
		const patch = wanted.get(h.id);
		return patch ? { ...h, ...patch } : h;
	});
}

/**
 * The rows with state read at `readAt` applied to those it names, except rows the reader changed
 * since (`changedAt`); the same array when nothing applies.
 */
export function patchReadRows(
	items: Headline[],
	rows: readonly (ArticlePatch & { id: number })[],
	changedAt: ReadonlyMap<number, number>,
	readAt: number
): Headline[] {
	const wanted = new Map(
		rows
			.filter((row) => (changedAt.get(row.id) ?? -Infinity) < readAt)
			.map((row) => [row.id, pickPatch(row)])
	);
	if (wanted.size === 0) return items;
	return items.map((h) => {
		const patch = wanted.get(h.id);
		return patch ? { ...h, ...patch } : h;
	});
}

/** The rows followed by those of `page` not already among them. */
export function withNewRows(items: Headline[], page: readonly Headline[]): Headline[] {
	const known = new Set(items.map((h) => h.id));
	return [...items, ...page.filter((h) => !known.has(h.id))];
}
