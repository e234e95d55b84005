/**
 * The label picker (LabelPicker.svelte) in jsdom: the labels are read from the server when the
 * menu opens (once per article), a box assigns or removes a label through the actions, a refused
 * change puts the box back, and for several articles a label is checked only where all have it.
 */
import { flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LabelWithState, TtrssClient } from '$lib/api';
import { ReaderError } from '$lib/api/errors';
import type { ArticleRef } from '$lib/outbox/intent';
import { session } from '$lib/state/session.svelte';
import LabelPicker from './LabelPicker.svelte';
import { freshTarget, hide, show } from '$support/mounted';

const actions = vi.hoisted(() => ({
	setLabel: vi.fn<(...args: unknown[]) => Promise<boolean>>(),
	setLabels: vi.fn<(...args: unknown[]) => Promise<boolean>>()
}));
vi.mock('$lib/state/actions', () => actions);

const work: LabelWithState = {
	id: -1025,
	caption: 'Work',
	fgColor: '',
	bgColor: '#ff0000',
	checked: false
};
const later: LabelWithState = {
	id: -1026,
	caption: 'Later',
	fgColor: '',
	bgColor: '',
	checked: true
};

function ref(id: number, labels: LabelWithState[] = []): ArticleRef {
	return {
		id,
		feedId: 1,
		unread: true,
		marked: false,
		published: false,
		note: undefined,
		labels: labels.map(({ id, caption, fgColor, bgColor }) => ({ id, caption, fgColor, bgColor })),
		updated: 1_790_000_000,
		score: 0
	};
}

let target: HTMLElement;
const getLabels = vi.fn<(articleId?: number) => Promise<LabelWithState[]>>();

beforeEach(() => {
	vi.spyOn(session, 'client', 'get').mockReturnValue({ getLabels } as unknown as TtrssClient);
	getLabels.mockReset();
	actions.setLabel.mockReset().mockResolvedValue(true);
	actions.setLabels.mockReset().mockResolvedValue(true);
	target = freshTarget();
});
afterEach(() => {
	vi.restoreAllMocks();
});

/** Opens the menu as a click on its summary does, and waits for what it then shows. */
async function open(): Promise<HTMLDetailsElement> {
	const details = target.querySelector('details');
	if (!details) throw new Error('no menu');
	details.open = true;
	await vi.waitFor(() => {
		flushSync();
		// The panel's content is built when the menu opens (Menu.svelte), then the labels come.
		const shown = details.querySelector('.panel > :is(p, fieldset)');
		expect(shown).not.toBeNull();
		expect(shown?.textContent).not.toBe('Loading labels…');
	});
	return details;
}

const boxes = (): HTMLInputElement[] => [
	...target.querySelectorAll<HTMLInputElement>('fieldset input')
];
const names = (): string[] =>
	[...target.querySelectorAll('fieldset label')].map((l) => l.textContent?.trim() ?? '');

function toggleBox(box: HTMLInputElement): void {
	box.checked = !box.checked;
	box.dispatchEvent(new Event('change', { bubbles: true }));
}

describe('LabelPicker, one article', () => {
	it('reads the article’s labels when opened, once, and shows them checked as the server says', async () => {
		getLabels.mockResolvedValue([work, later]);
		show(LabelPicker, target, { article: ref(5) });
		expect(getLabels).not.toHaveBeenCalled();
		// Nothing of the panel is built before it opens (an article's opening stays cheap).
		expect(target.querySelector('.panel')?.childElementCount).toBe(0);
		const details = await open();
		expect(getLabels).toHaveBeenCalledWith(5);
		expect(names()).toEqual(['Work', 'Later']);
		expect(boxes().map((b) => b.checked)).toEqual([false, true]);
		details.open = false;
		await vi.waitFor(() => expect(details.open).toBe(false));
		// Kept once built: closed, the boxes are still there.
		expect(boxes()).toHaveLength(2);
		await open();
		expect(getLabels).toHaveBeenCalledTimes(1);
	});

	it('a box assigns the label through the actions; a refused change puts the box back', async () => {
		getLabels.mockResolvedValue([work]);
		show(LabelPicker, target, { article: ref(5) });
		await open();
		toggleBox(boxes()[0]!);
		await vi.waitFor(() => expect(actions.setLabel).toHaveBeenCalledTimes(1));
		expect(actions.setLabel).toHaveBeenCalledWith(
			expect.objectContaining({ id: 5 }),
			expect.objectContaining({ id: -1025 }),
			true
		);
		actions.setLabel.mockResolvedValue(false);
		// The server's state for it is now checked; removing it is refused: it stays checked.
		flushSync();
		toggleBox(boxes()[0]!);
		await vi.waitFor(() => expect(actions.setLabel).toHaveBeenCalledTimes(2));
		expect(actions.setLabel).toHaveBeenLastCalledWith(
			expect.anything(),
			expect.objectContaining({ id: -1025 }),
			false
		);
		await vi.waitFor(() => {
			flushSync();
			expect(boxes()[0]?.checked).toBe(true);
		});
	});

	it('says so when there are no labels, and shows the reader’s words when reading fails', async () => {
		getLabels.mockResolvedValue([]);
		show(LabelPicker, target, { article: ref(5) });
		await open();
		expect(target.querySelector('p.muted')?.textContent).toContain('No labels yet');
		await hide();
		getLabels.mockRejectedValue(new ReaderError('The server could not be reached.'));
		show(LabelPicker, target, { article: ref(6) });
		await open();
		expect(target.querySelector('[role="alert"]')?.textContent).toBe(
			'The server could not be reached.'
		);
		expect(boxes()).toEqual([]);
	});
});

describe('LabelPicker, the selection', () => {
	it('checks a label only where every picked article has it, and adds it to all, undoably', async () => {
		getLabels.mockResolvedValue([work, later]);
		const picked = [ref(1, [work, later]), ref(2, [work])];
		show(LabelPicker, target, { articles: picked });
		expect(target.querySelector('summary')?.textContent).toContain('Label…');
		await open();
		expect(getLabels).toHaveBeenCalledWith(undefined);
		expect(boxes().map((b) => b.checked)).toEqual([true, false]);
		toggleBox(boxes()[1]!);
		await vi.waitFor(() => expect(actions.setLabels).toHaveBeenCalledTimes(1));
		expect(actions.setLabels).toHaveBeenCalledWith(
			picked,
			expect.objectContaining({ id: -1026 }),
			true,
			{ undo: 'Added “Later” to 2 articles.' }
		);
		expect(actions.setLabel).not.toHaveBeenCalled();
	});
});
