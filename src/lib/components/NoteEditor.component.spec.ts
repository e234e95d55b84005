/**
 * An article's note (NoteEditor.svelte) in jsdom: shown when there is one, edited in place from
 * `edit()` (the toolbar's note button), saved through the one action path, or left as it was.
 */
import { flushSync, mount, unmount } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { headline } from '$lib/outbox/testing/fake-server';
import type { OpenArticle } from '$lib/state/article.svelte';
import NoteEditor from './NoteEditor.svelte';

const actions = vi.hoisted(() => ({
	setNote: vi.fn<(ref: unknown, note: string) => Promise<boolean>>()
}));
vi.mock('$lib/state/actions', () => actions);

let shown: { edit: () => void } | undefined;
let target: HTMLElement;

function article(note: string | undefined): OpenArticle {
	const { isUpdated, excerpt, commentsLink, alwaysDisplayAttachments, flavorKind, ...rest } =
		headline(9, { note });
	void [isUpdated, excerpt, commentsLink, alwaysDisplayAttachments, flavorKind];
	return { ...rest, comments: '' };
}

function show(note: string | undefined): { edit: () => void } {
	shown = mount(NoteEditor, { target, props: { article: article(note) } });
	flushSync();
	return shown;
}

beforeEach(() => {
	actions.setNote.mockReset().mockResolvedValue(true);
	target = document.createElement('div');
	document.body.replaceChildren(target);
});
afterEach(async () => {
	if (shown) await unmount(shown);
	shown = undefined;
});

const field = (): HTMLTextAreaElement | null => target.querySelector('textarea');

describe('NoteEditor', () => {
	it('shows the article’s note, and nothing when it has none', async () => {
		show('Read again on Sunday');
		expect(target.querySelector('aside[aria-label="Note"] p')?.textContent).toBe(
			'Read again on Sunday'
		);
		await unmount(shown!);
		show(undefined);
		expect(target.textContent?.trim()).toBe('');
	});

	it('edit() opens the note in a focused field, and Save sends what was typed', async () => {
		const editor = show('Old');
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
		const editor = show(undefined);
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
