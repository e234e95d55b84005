/**
 * What a swipe on a headline does, as the reader chose in Settings: for each side one
 * of read, star, publish, a label, or nothing. Kept in localStorage like the other display
 * preferences (state/settings.svelte.ts), under its own key, so a side is known before any data.
 * Every swipe is undoable (state/undo.svelte.ts).
 */
import type { Headline, Label } from '$lib/api';
import { m, whenAllMessages } from '$lib/i18n/m';
import { loadActions } from './actions-soon';
import { StoredValues } from './stored.svelte';
import { treeState } from './tree.svelte';
import { parseStoredObject } from './local-json';

/** `label:<feed-style id>` names one label. */
export type SwipeAction = 'read' | 'star' | 'publish' | 'none' | `label:${number}`;
/** The side the row moves to: a swipe left moves it left. */
export type SwipeSide = 'left' | 'right';

export interface SwipeSettings {
	left: SwipeAction;
	right: SwipeAction;
}

export const DEFAULT_SWIPES: SwipeSettings = { left: 'read', right: 'star' };

const STORAGE_KEY = 'reader.swipes';

export function isSwipeAction(value: unknown): value is SwipeAction {
	return (
		value === 'read' ||
		value === 'star' ||
		value === 'publish' ||
		value === 'none' ||
		(typeof value === 'string' && /^label:-\d+$/.test(value))
	);
}

/** localStorage is outside input: only known actions, else the defaults. */
export function parseSwipes(raw: string | null): SwipeSettings {
	const stored = parseStoredObject(raw) ?? {};
	return {
		left: isSwipeAction(stored.left) ? stored.left : DEFAULT_SWIPES.left,
		right: isSwipeAction(stored.right) ? stored.right : DEFAULT_SWIPES.right
	};
}

/** How the row shows a side's action while it is swiped: words, a symbol, a tone (colour). */
export interface SwipeHint {
	text: string;
	icon: string;
	tone: 'read' | 'star' | 'publish' | 'label';
}

type Row = Pick<Headline, 'id' | 'title' | 'unread' | 'marked' | 'published' | 'labels'>;

function labelOf(action: SwipeAction, labels: readonly Label[] = []): Label | undefined {
	if (!action.startsWith('label:')) return undefined;
	const id = Number(action.slice('label:'.length));
	const known = treeState.tree?.labels.find((l) => l.id === id);
	if (known)
		return { id, caption: known.title, fgColor: known.fgColor ?? '', bgColor: known.bgColor ?? '' };
	// A label the tree does not list (not loaded yet, or deleted): only the row's own copy.
	return labels.find((l) => l.id === id);
}

export class Swipes extends StoredValues<SwipeSettings> {
	constructor() {
		super(STORAGE_KEY, parseSwipes, DEFAULT_SWIPES);
	}

	/** The hint for a side on this row; undefined when that side does nothing. */
	hint(side: SwipeSide, row: Row): SwipeHint | undefined {
		const action = this.values[side];
		switch (action) {
			case 'none':
				return undefined;
			case 'read':
				return row.unread
					? { text: m.article_mark_read(), icon: '✓', tone: 'read' }
					: { text: m.article_mark_unread(), icon: '●', tone: 'read' };
			case 'star':
				return row.marked
					? { text: m.selection_unstar(), icon: '☆', tone: 'star' }
					: { text: m.article_star(), icon: '★', tone: 'star' };
			case 'publish':
				return row.published
					? { text: m.swipe_unpublish(), icon: '⇩', tone: 'publish' }
					: { text: m.article_publish(), icon: '⇪', tone: 'publish' };
			default: {
				const label = labelOf(action, row.labels);
				if (!label) return undefined;
				const has = row.labels.some((l) => l.id === label.id);
				return {
					text: has
						? m.swipe_label_remove({ label: label.caption })
						: m.swipe_label_add({ label: label.caption }),
					icon: '🏷',
					tone: 'label'
				};
			}
		}
	}

	/** Does what the side is set to, undoable. */
	async run(side: SwipeSide, row: Headline): Promise<boolean> {
		const action = this.values[side];
		if (action === 'none') return false;
		// The Undo toast's words are toast_ messages: the later module.
		const [{ setFlag, setLabels }] = await Promise.all([loadActions(), whenAllMessages()]);
		const title = row.title || m.row_untitled();
		switch (action) {
			case 'read':
				return setFlag([row], 'unread', !row.unread, {
					undo: row.unread ? m.toast_swipe_read({ title }) : m.toast_swipe_unread({ title })
				});
			case 'star':
				return setFlag([row], 'starred', !row.marked, {
					undo: row.marked ? m.toast_swipe_unstarred({ title }) : m.toast_swipe_starred({ title })
				});
			case 'publish':
				return setFlag([row], 'published', !row.published, {
					undo: row.published
						? m.toast_swipe_unpublished({ title })
						: m.toast_swipe_published({ title })
				});
			default: {
				const label = labelOf(action, row.labels);
				if (!label) return false;
				const assign = !row.labels.some((l) => l.id === label.id);
				return setLabels([row], label, assign, {
					undo: assign
						? m.toast_swipe_label_added({ label: label.caption, title })
						: m.toast_swipe_label_removed({ label: label.caption, title })
				});
			}
		}
	}
}

export const swipes = new Swipes();
