/**
 * A feed tree row (FeedTreeRow.svelte) in jsdom: a tap on the home screen asks for the list's rows
 * at once (before the list's screen is built); with a list on screen, or a tap meant for a new tab,
 * it leaves that to the list's screen.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TreeRow } from '$lib/tree/rows';
import { freshTarget, show } from './testing/mounted';

const state = vi.hoisted(() => {
	const params: Record<string, string> = {};
	return { params, open: vi.fn() };
});
vi.mock('$app/state', () => ({ page: { params: state.params } }));
vi.mock('$lib/state/session.svelte', () => ({
	session: { signedIn: true, capabilities: { orderBy: true } }
}));
vi.mock('$lib/state/headlines.svelte', async (original) => ({
	...(await original<typeof import('$lib/state/headlines.svelte')>()),
	headlines: { open: state.open }
}));

const FeedTreeRow = (await import('./FeedTreeRow.svelte')).default;

const row: Extract<TreeRow, { kind: 'feed' }> = {
	kind: 'feed',
	key: 'feed:7',
	section: 'categories',
	level: 1,
	posinset: 1,
	setsize: 1,
	feed: { id: 7, title: 'Tech news', unread: 3, error: undefined }
};

function tap(init: MouseEventInit = {}): void {
	const link = document.querySelector('a.row');
	if (!link) throw new Error('no link');
	// The app's own navigation is not under test: the click's default is stopped.
	link.addEventListener('click', (event) => event.preventDefault(), { once: true });
	link.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, ...init }));
}

describe('FeedTreeRow', () => {
	afterEach(() => {
		state.open.mockClear();
		for (const key of Object.keys(state.params)) delete state.params[key];
	});

	it('on the home screen, a tap asks for the list at once, as its screen will', () => {
		show(FeedTreeRow, freshTarget(), { row, current: false, ontoggle: () => {} });
		tap();
		expect(state.open).toHaveBeenCalledTimes(1);
		expect(state.open.mock.calls[0]?.[0]).toMatchObject({
			kind: 'feed',
			id: '7',
			search: '',
			searchMode: 'this_feed'
		});
	});

	it('leaves it to the list when one is on screen, and to the new tab of a modified click', () => {
		show(FeedTreeRow, freshTarget(), { row, current: false, ontoggle: () => {} });
		tap({ ctrlKey: true });
		tap({ button: 1 });
		state.params.kind = 'feed';
		state.params.id = '3';
		tap();
		expect(state.open).not.toHaveBeenCalled();
	});
});
