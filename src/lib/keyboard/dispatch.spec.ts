import { describe, expect, it, vi } from 'vitest';
import { keyEvent as key } from '$support/factories';
import type { ArticleRef } from '$lib/state/actions';
import { keydownHandler, runCommand, stepPlace, type KeyboardHost } from './dispatch';

const article: ArticleRef & { link?: string } = {
	id: 12,
	feedId: 3,
	unread: true,
	marked: false,
	published: true,
	note: undefined,
	labels: [],
	updated: 0,
	score: 0,
	link: 'http://feeds.test/a/12'
};

/** A screen showing feed 3 with rows 11, 12, 13 loaded, article 12 open; its calls recorded. */
function host(over: Partial<KeyboardHost> = {}) {
	const items = [{ id: 11 }, { id: 12 }, { id: 13 }];
	const mocks = {
		loadMore: vi.fn<() => Promise<void>>(() => Promise.resolve()),
		setFlag: vi.fn<KeyboardHost['setFlag']>(() => Promise.resolve(true)),
		markBesideRead: vi.fn<KeyboardHost['markBesideRead']>(() => Promise.resolve(true)),
		openList: vi.fn<KeyboardHost['openList']>(() => Promise.resolve()),
		openArticle: vi.fn<KeyboardHost['openArticle']>(() => Promise.resolve()),
		openOriginal: vi.fn<KeyboardHost['openOriginal']>(),
		refresh: vi.fn<KeyboardHost['refresh']>(() => Promise.resolve()),
		focusSearch: vi.fn<KeyboardHost['focusSearch']>(),
		focusListTitle: vi.fn<KeyboardHost['focusListTitle']>(),
		showHelp: vi.fn<KeyboardHost['showHelp']>()
	};
	const screen: KeyboardHost = {
		where: () => ({ kind: 'feed', id: '3', article: '12' }),
		inList: () => true,
		articleOpen: () => true,
		list: {
			items,
			complete: true,
			indexOf: (id: number) => items.findIndex((i) => i.id === id),
			loadMore: mocks.loadMore
		},
		places: () => [
			{ kind: 'feed', id: -4 },
			{ kind: 'cat', id: 1 },
			{ kind: 'feed', id: 3 }
		],
		article: () => article,
		setFlag: mocks.setFlag,
		markBesideRead: mocks.markBesideRead,
		openList: mocks.openList,
		openArticle: mocks.openArticle,
		openOriginal: mocks.openOriginal,
		refresh: mocks.refresh,
		focusSearch: mocks.focusSearch,
		focusListTitle: mocks.focusListTitle,
		showHelp: mocks.showHelp,
		dialogOpen: () => false,
		safeLink: (url) => (url?.startsWith('http') ? url : undefined),
		...over
	};
	return { screen, items, ...mocks };
}

describe('next and previous article', () => {
	it('j and k open the neighbouring rows of the open article', async () => {
		const h = host();
		await runCommand(h.screen, 'nextArticle');
		await runCommand(h.screen, 'previousArticle');
		expect(h.openArticle.mock.calls).toEqual([
			['feed', '3', 13],
			['feed', '3', 11]
		]);
	});

	it('without an open article, j opens the first row and k none', async () => {
		const h = host({ where: () => ({ kind: 'feed', id: '3' }), articleOpen: () => false });
		await runCommand(h.screen, 'nextArticle');
		await runCommand(h.screen, 'previousArticle');
		expect(h.openArticle.mock.calls).toEqual([['feed', '3', 11]]);
	});

	it('j on the last loaded row loads the next page first', async () => {
		const h = host({ where: () => ({ kind: 'feed', id: '3', article: '13' }) });
		h.loadMore.mockImplementation(() => {
			h.items.push({ id: 14 });
			return Promise.resolve();
		});
		await runCommand({ ...h.screen, list: { ...h.screen.list, complete: false } }, 'nextArticle');
		expect(h.loadMore).toHaveBeenCalledOnce();
		expect(h.openArticle).toHaveBeenCalledWith('feed', '3', 14);
	});

	it('j on the last row of a complete list stays', async () => {
		const h = host({ where: () => ({ kind: 'feed', id: '3', article: '13' }) });
		await runCommand(h.screen, 'nextArticle');
		expect(h.loadMore).not.toHaveBeenCalled();
		expect(h.openArticle).not.toHaveBeenCalled();
	});

	it('does nothing outside a headline list', async () => {
		const h = host({ inList: () => false });
		await runCommand(h.screen, 'nextArticle');
		expect(h.openArticle).not.toHaveBeenCalled();
	});
});

describe('next and previous feed', () => {
	const places = host().screen.places();

	it('walks the tree in order and wraps around at both ends', () => {
		expect(stepPlace(places, { kind: 'feed', id: '-4' }, 1)).toEqual({ kind: 'cat', id: 1 });
		expect(stepPlace(places, { kind: 'feed', id: '3' }, 1)).toEqual({ kind: 'feed', id: -4 });
		expect(stepPlace(places, { kind: 'feed', id: '-4' }, -1)).toEqual({ kind: 'feed', id: 3 });
	});

	it('a feed id that is also a category id is not taken for it', () => {
		expect(stepPlace(places, { kind: 'feed', id: '1' }, 1)).toEqual({ kind: 'feed', id: -4 });
	});

	it('opens the list and puts focus on its title; nothing in an empty tree', async () => {
		const h = host();
		await runCommand(h.screen, 'nextFeed');
		expect(h.openList).toHaveBeenCalledWith('feed', '-4');
		expect(h.focusListTitle).toHaveBeenCalledOnce();
		const empty = host({ places: () => [] });
		await runCommand(empty.screen, 'previousFeed');
		expect(empty.openList).not.toHaveBeenCalled();
	});
});

describe('article actions', () => {
	it('s, Shift+P and u flip the open article’s flags', async () => {
		const h = host();
		await runCommand(h.screen, 'toggleStar');
		await runCommand(h.screen, 'togglePublished');
		await runCommand(h.screen, 'toggleRead');
		expect(h.setFlag.mock.calls).toEqual([
			[[article], 'starred', true],
			[[article], 'published', false],
			[[article], 'unread', false]
		]);
	});

	it('act on nothing while no article is open (the list’s own state may hold an old one)', async () => {
		const h = host({ articleOpen: () => false });
		await runCommand(h.screen, 'toggleStar');
		await runCommand(h.screen, 'openOriginal');
		expect(h.setFlag).not.toHaveBeenCalled();
		expect(h.openOriginal).not.toHaveBeenCalled();
	});

	it('Shift+↑ and Shift+↓ mark the rows above and below the open article read', async () => {
		const h = host();
		await runCommand(h.screen, 'markAboveRead');
		await runCommand(h.screen, 'markBelowRead');
		expect(h.markBesideRead.mock.calls).toEqual([
			[12, 'above'],
			[12, 'below']
		]);
	});

	it('o opens the original only through the URL rule', async () => {
		const h = host();
		await runCommand(h.screen, 'openOriginal');
		expect(h.openOriginal).toHaveBeenCalledWith('http://feeds.test/a/12');
		const hostile = host({ article: () => ({ ...article, link: 'javascript:alert(1)' }) });
		await runCommand(hostile.screen, 'openOriginal');
		expect(hostile.openOriginal).not.toHaveBeenCalled();
	});
});

describe('the keydown handler', () => {
	/** Presses a key on the host's screen; returns the event as the handler left it. */
	const press = (h: ReturnType<typeof host>, k: string, extra: Partial<KeyboardEvent> = {}) => {
		const event = key(k, extra);
		keydownHandler(h.screen)(event);
		return event;
	};

	it('takes a shortcut’s key from the browser and runs it', () => {
		const h = host();
		expect(press(h, 'r').defaultPrevented).toBe(true);
		expect(h.refresh).toHaveBeenCalledOnce();
	});

	it('leaves keys alone while a modal dialog is open', () => {
		const h = host({ dialogOpen: () => true });
		expect(press(h, '?', { shiftKey: true }).defaultPrevented).toBe(false);
		expect(h.showHelp).not.toHaveBeenCalled();
	});

	it('Escape closes an open article, and is left to the page otherwise', () => {
		const open = host();
		press(open, 'Escape');
		expect(open.openList).toHaveBeenCalledWith('feed', '3');
		const closed = host({ articleOpen: () => false });
		expect(press(closed, 'Escape').defaultPrevented).toBe(false);
		expect(closed.openList).not.toHaveBeenCalled();
	});

	it('Shift+↓ is left to the page (text selection) while no article is open', () => {
		const closed = host({ articleOpen: () => false });
		expect(press(closed, 'ArrowDown', { shiftKey: true }).defaultPrevented).toBe(false);
		expect(closed.markBesideRead).not.toHaveBeenCalled();
		const open = host();
		expect(press(open, 'ArrowDown', { shiftKey: true }).defaultPrevented).toBe(true);
		expect(open.markBesideRead).toHaveBeenCalledWith(12, 'below');
	});

	it('/ and ? reach the search field and the help', () => {
		const h = host();
		press(h, '/');
		press(h, '?', { shiftKey: true });
		expect(h.focusSearch).toHaveBeenCalledOnce();
		expect(h.showHelp).toHaveBeenCalledOnce();
	});
});

describe('selection keys', () => {
	const press = (h: ReturnType<typeof host>, k: string) => {
		const event = key(k);
		keydownHandler(h.screen)(event);
		return event;
	};

	function picking(active = false) {
		const state = { active, toggle: vi.fn<(id: number) => void>(), clear: vi.fn<() => void>() };
		return state;
	}

	it('x picks the focused row, else the open article', async () => {
		const selection = picking();
		const focused = host({ selection, focusedArticle: () => 13 });
		await runCommand(focused.screen, 'toggleSelect');
		const open = host({ selection, focusedArticle: () => undefined });
		await runCommand(open.screen, 'toggleSelect');
		expect(selection.toggle.mock.calls).toEqual([[13], [12]]);
		const nothing = host({ selection, articleOpen: () => false, focusedArticle: () => undefined });
		await runCommand(nothing.screen, 'toggleSelect');
		expect(selection.toggle).toHaveBeenCalledTimes(2);
	});

	it('x acts on the row where it was pressed, even when handled later (keys held until load)', async () => {
		const selection = picking();
		const where = vi.fn((from?: EventTarget | null) => (from === pressedOn ? 21 : 13));
		const pressedOn = new EventTarget();
		const h = host({ selection, focusedArticle: where });
		await runCommand(h.screen, 'toggleSelect', pressedOn);
		expect(selection.toggle).toHaveBeenCalledWith(21);
	});

	it('Escape clears a selection before it closes the article, with or without one open', () => {
		const selection = picking(true);
		const open = host({ selection });
		press(open, 'Escape');
		expect(selection.clear).toHaveBeenCalledOnce();
		expect(open.openList).not.toHaveBeenCalled();
		const closed = host({ selection, articleOpen: () => false });
		expect(press(closed, 'Escape').defaultPrevented).toBe(true);
		expect(selection.clear).toHaveBeenCalledTimes(2);
	});
});
