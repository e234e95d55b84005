/**
 * The headline list's search field (ListSearch.svelte) in jsdom: where it may look, and what
 * submitting, Clear and Escape ask of its owner (HeadlineToolbar keeps the search in force).
 */
import { flushSync, type ComponentProps } from 'svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import ListSearch from './ListSearch.svelte';
import { freshTarget, show } from '$support/mounted';

let target: HTMLElement;
const onsearch = vi.fn<() => void>();
const onclose = vi.fn<() => void>();

beforeEach(() => {
	target = freshTarget();
	onsearch.mockReset();
	onclose.mockReset();
});

const props = (
	patch: Partial<ComponentProps<typeof ListSearch>> = {}
): ComponentProps<typeof ListSearch> => ({
	kind: 'feed',
	categoryTitle: 'Tech',
	searchText: '',
	searchMode: 'this_feed',
	activeSearch: '',
	onsearch,
	onclose,
	...patch
});
const field = (): HTMLInputElement => target.querySelector('input[type="search"]')!;
const escape = (): void => {
	field().dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
	flushSync();
};

describe('ListSearch', () => {
	it('looks in this feed, its category or every feed; a list without a category has no such choice', () => {
		show(ListSearch, target, props());
		const options = (): string[] =>
			[...target.querySelectorAll('select option')].map((o) => o.textContent ?? '');
		expect(options()).toEqual(['This feed', 'Category: Tech', 'All feeds']);
		show(ListSearch, freshTarget(), props({ kind: 'cat', categoryTitle: undefined }));
		expect([...document.querySelectorAll('select option')].map((o) => o.textContent ?? '')).toEqual(
			['This category', 'All feeds']
		);
	});

	it('submitting asks for the search; Clear shows only while a search is in force', () => {
		show(ListSearch, target, props());
		target.querySelector('form')!.requestSubmit();
		expect(onsearch).toHaveBeenCalledOnce();
		expect(target.querySelector('button[aria-label="Clear"]')).toBeNull();
		const other = freshTarget();
		show(ListSearch, other, props({ activeSearch: 'rust' }));
		other.querySelector<HTMLButtonElement>('button[aria-label="Clear"]')!.click();
		expect(onclose).toHaveBeenCalledOnce();
	});

	it('Escape in an empty field closes it; in a field with words it is left to the browser', () => {
		show(ListSearch, target, props({ searchText: 'rus' }));
		escape();
		expect(onclose).not.toHaveBeenCalled();
		show(ListSearch, (target = freshTarget()), props());
		escape();
		expect(onclose).toHaveBeenCalledOnce();
	});
});
