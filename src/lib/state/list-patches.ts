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

type PatchField = keyof ArticlePatch;

/** When the reader last changed each field of an article on this page (`Date.now()`), by id. */
export type ChangedAt = Map<number, Partial<Record<PatchField, number>>>;

/** Notes the reader's changes, made at `at`, in `changedAt`. */
export function noteChanged(
	changedAt: ChangedAt,
	changes: readonly { id: number; patch: ArticlePatch }[],
	at: number
): void {
	for (const { id, patch } of changes) {
		const fields = { ...changedAt.get(id) };
		for (const field of Object.keys(patch) as PatchField[]) fields[field] = at;
		changedAt.set(id, fields);
	}
}

/**
 * `row`, read at `readAt` (a server answer, the cache), with each field the reader changed here at
 * or after `readAt` as `shown` (the row or article on screen) has it: the read does not know that
 * change, whatever it says of the field. The one rule for what is read going on screen: the
 * queued changes applied over a read (`withQueuedChanges`) were read themselves, and a change the
 * reader makes meanwhile is in neither (else: an opened article unread again on screen).
 */
export function keepChangedSince<T extends ArticlePatch & { id: number }>(
	row: T,
	shown: ArticlePatch | undefined,
	changedAt: ReadonlyMap<number, Partial<Record<PatchField, number>>>,
	readAt: number
): T {
	const fields = changedAt.get(row.id);
	if (!fields || !shown) return row;
	let kept: T | undefined;
	for (const [field, at] of Object.entries(fields) as [PatchField, number][]) {
		if (at < readAt) continue;
		kept ??= { ...row };
		Object.assign(kept, { [field]: shown[field] });
	}
	return kept ?? row;
}

/**
 * The rows with state read at `readAt` applied to those it names, except the fields the reader
 * changed since (`keepChangedSince`); the same array when nothing changes.
 */
export function patchReadRows(
	items: Headline[],
	rows: readonly (ArticlePatch & { id: number })[],
	changedAt: ReadonlyMap<number, Partial<Record<PatchField, number>>>,
	readAt: number
): Headline[] {
	const read = new Map(rows.map((row) => [row.id, row]));
	let changed = false;
	const next = items.map((h) => {
		const row = read.get(h.id);
		if (!row) return h;
		const patch = pickPatch(keepChangedSince(row, h, changedAt, readAt));
		if ((Object.keys(patch) as PatchField[]).every((field) => patch[field] === h[field])) return h;
		changed = true;
		return { ...h, ...patch };
	});
	return changed ? next : items;
}

/** The rows followed by those of `page` not already among them. */
export function withNewRows(items: Headline[], page: readonly Headline[]): Headline[] {
	const known = new Set(items.map((h) => h.id));
	return [...items, ...page.filter((h) => !known.has(h.id))];
}
