/**
 * An article's note (NoteEditor.svelte) in jsdom: shown when there is one, edited in place from
 * `edit()` (the toolbar's note button), saved through the one action path, or left as it was.
 */
import { flushSync } from 'svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import NoteEditor from './NoteEditor.svelte';
import { freshTarget, hide, openArticle, show } from '$support/mounted';

const actions = vi.hoisted(() => ({
	setNote: vi.fn<(ref: unknown, note: string) => Promise<boolean>>()
}));
vi.mock('$lib/state/actions', () => actions);

let target: HTMLElement;

// The component's exports: `show` types what mount returns, not what this component exports.
const showNote = (note: string | undefined) =>
	show(NoteEditor, target, { article: openArticle(9, { note }) }) as { edit: () => void };

beforeEach(() => {
	actions.setNote.mockReset().mockResolvedValue(true);
	target = freshTarget();
});

const field = (): HTMLTextAreaElement | null => target.querySelector('textarea');

describe('NoteEditor', () => {
	it('shows the article’s note, and nothing when it has none', async () => {
		showNote('Read again on Sunday');
		expect(target.querySelector('aside[aria-label="Note"] p')?.textContent).toBe(
			'Read again on Sunday'
		);
		await hide();
		showNote(undefined);
		expect(target.textContent?.trim()).toBe('');
	});

	it('edit() opens the note in a focused field, and Save sends what was typed', async () => {
		const editor = showNote('Old');
		editor.edit();
		flushSync();
		expect(field()?.value).toBe('Old');
		await vi.waitFor(() => expect(document.activeElement).toBe(field()));
		field()!.value = 'New thought';
		field()!.dispatchEvent(new Event('input', { bubbles: true }));
		target.querySelector('form')!.requestSubmit();
		flushSync();
		expect(actions.setNote).toHaveBeenCalledWith(expect.objectContaining({ id: 9 }), 'New thought');
		expect(field()).toBeNull();
	});

	it('Cancel closes the field and saves nothing', () => {
		const editor = showNote(undefined);
		editor.edit();
		flushSync();
		expect(field()?.value).toBe('');
		const cancel = [...target.querySelectorAll('button')].find((b) => b.textContent === 'Cancel');
		cancel!.click();
		flushSync();
		expect(field()).toBeNull();
		expect(actions.setNote).not.toHaveBeenCalled();
	});
});
