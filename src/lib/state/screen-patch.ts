/**
 * A change of the reader's on screen before it is queued (state/submit.ts `submitChange`): the
 * open article, the tree's unread counters and the list's rows take each article's patch, and
 * what they showed before is kept so a refused change or an Undo can put it back.
 */
import type { ArticleRef } from '$lib/outbox/intent';
import { articleState } from './article.svelte';
import type { ArticlePatch } from './list-query';
import { headlines } from './headlines.svelte';
import { treeState } from './tree.svelte';

/** An article and the patch a change makes to it. */
export interface ArticleChangeOf {
	ref: ArticleRef;
	patch: ArticlePatch;
}

/** A patch shown, with the fields as they were before it. */
export interface ShownPatch extends ArticleChangeOf {
	before: ArticlePatch;
}

/** Shows the patches: the open article, the counters of a read change, the rows in one pass. */
export function showPatches(changes: readonly ArticleChangeOf[]): ShownPatch[] {
	const shown: ShownPatch[] = [];
	for (const { ref, patch } of changes) {
		const before: ArticlePatch = {};
		for (const key of Object.keys(patch) as (keyof ArticlePatch)[]) {
			Object.assign(before, { [key]: ref[key] });
		}
		shown.push({ ref, before, patch });
		articleState.patch(ref.id, patch);
		if (patch.unread !== undefined && patch.unread !== ref.unread) {
			treeState.adjust(ref, patch.unread ? 1 : -1);
		}
	}
	// The rows in one pass (20 selected rows: not 20 copies of the whole list).
	headlines.patchEach(shown.map(({ ref, patch }) => ({ id: ref.id, patch })));
	return shown;
}

/** Puts back what the patches replaced. */
export function putBack(shown: readonly ShownPatch[]): void {
	for (const { ref, before, patch } of shown) {
		articleState.patch(ref.id, before);
		if (patch.unread !== undefined && patch.unread !== ref.unread) {
			treeState.adjust(ref, patch.unread ? -1 : 1);
		}
	}
	headlines.patchEach(shown.map(({ ref, before }) => ({ id: ref.id, patch: before })));
}
