/**
 * One headline row (HeadlineRow.svelte with HeadlineSummary, RowActions, SwipeReveal and
 * row-swipe.svelte.ts) in jsdom: what it shows, what its link, star, box and ⋯ panel do, and its
 * swipe and long press fed pointer events (jsdom has no PointerEvent: a MouseEvent with a pointer's
 * fields stands in).
 */
import { flushSync } from 'svelte';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Headline } from '$lib/api';
import { headline as makeHeadline } from '$support/factories';
import type { Density } from '$lib/state/settings.svelte';
import { swipes } from '$lib/state/swipe.svelte';
import HeadlineRow from './HeadlineRow.svelte';
import { rowSwipeReady } from './row-swipe.svelte';
import { freshTarget, hide, show } from '$support/mounted';

class FakePointerEvent extends MouseEvent {
	readonly pointerId: number;
	readonly pointerType: string;
	constructor(type: string, init: MouseEventInit & { pointerId?: number; pointerType?: string }) {
		super(type, { bubbles: true, cancelable: true, ...init });
		this.pointerId = init.pointerId ?? 1;
		this.pointerType = init.pointerType ?? 'touch';
	}
}

interface RowProps {
	headline?: Partial<Headline>;
	feedTitle?: string;
	alsoIn?: string[];
	density?: Density;
	selecting?: boolean;
	selectable?: boolean;
	opensElsewhere?: boolean;
}

let target: HTMLElement;
const calls = {
	star: vi.fn(),
	above: vi.fn(),
	below: vi.fn(),
	open: vi.fn<() => boolean>(),
	select: vi.fn<(how: 'toggle' | 'range') => void>()
};

function showRow(props: RowProps = {}): HTMLElement {
	calls.open.mockReturnValue(props.opensElsewhere ?? false);
	show(HeadlineRow, target, {
		headline: makeHeadline(7, { title: 'Rust 2.0 released', ...props.headline }),
		href: '#feed/1/7',
		feedTitle: props.feedTitle ?? 'Tech news',
		alsoIn: props.alsoIn ?? [],
		current: false,
		onToggleStar: calls.star,
		onMarkAbove: calls.above,
		onMarkBelow: calls.below,
		onOpen: calls.open,
		selecting: props.selecting ?? false,
		...(props.selectable === false ? {} : { onSelect: calls.select }),
		density: props.density ?? 'comfortable'
	});
	const row = target.querySelector<HTMLElement>('.headline');
	if (!row) throw new Error('no row');
	return row;
}

const q = <T extends Element = HTMLElement>(root: ParentNode, selector: string): T => {
	const found = root.querySelector<T>(selector);
	if (!found) throw new Error(`nothing matches ${selector}`);
	return found;
};

/** A click as the browser makes it; false when the row prevented its default (no navigation). */
function click(element: Element, init: MouseEventInit = {}): boolean {
	return element.dispatchEvent(
		new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init })
	);
}

function pointer(element: Element, type: string, x: number, y = 100, pointerType = 'touch'): void {
	element.dispatchEvent(
		new FakePointerEvent(type, { clientX: x, clientY: y, button: 0, pointerId: 1, pointerType })
	);
	flushSync();
}

beforeAll(async () => {
	await rowSwipeReady();
});
beforeEach(() => {
	localStorage.clear();
	swipes.reset();
	for (const fn of Object.values(calls)) fn.mockReset();
	target = freshTarget();
});
afterEach(() => {
	vi.useRealTimers();
	vi.restoreAllMocks();
});

describe('HeadlineRow: what it shows', () => {
	it('shows the title, the feed and the date, and says unread and starred in words', () => {
		const row = showRow({ headline: { unread: true, marked: true, updated: 1_790_000_000 } });
		expect(q(row, '.title').textContent).toBe('Rust 2.0 released');
		expect(q(row, '.feed').textContent).toBe('Tech news');
		expect(q(row, 'time').getAttribute('datetime')).toBe(new Date(1_790_000_000_000).toISOString());
		expect(q(row, 'time').textContent?.trim()).not.toBe('');
		expect(q(row, '.visually-hidden').textContent).toBe(', unread, starred');
		expect(row.dataset.articleId).toBe('7');
	});

	it('marks an unread row (class, the dot its text draws) and not a read one', async () => {
		const unread = showRow({ headline: { unread: true } });
		expect(unread.classList.contains('unread')).toBe(true);
		expect(q(unread, '.text').classList.contains('unread')).toBe(true);
		await hide();
		const read = showRow({ headline: { unread: false } });
		expect(read.classList.contains('unread')).toBe(false);
		expect(q(read, '.text').classList.contains('unread')).toBe(false);
		expect(q(read, '.visually-hidden').textContent).toBe('');
	});

	it('shows "(untitled)" for a headline without a title', () => {
		const row = showRow({ headline: { title: '' } });
		expect(q(row, '.title').textContent).toBe('(untitled)');
	});

	it('gives a comfortable row the excerpt, decoded, unless "Also in" takes its line', async () => {
		let row = showRow({ headline: { excerpt: 'Fast &amp; safe&hellip;' } });
		expect(q(row, '.excerpt').textContent).toBe('Fast & safe…');
		expect(row.querySelector('.also-in')).toBeNull();
		await hide();
		row = showRow({ headline: { excerpt: 'Fast' }, alsoIn: ['Planet', 'Digest'] });
		expect(row.querySelector('.excerpt')).toBeNull();
		expect(q(row, '.also-in').textContent).toBe('Also in: Planet, Digest');
	});

	it('gives a compact row no excerpt and says "also in" only in words', () => {
		const row = showRow({
			density: 'compact',
			headline: { excerpt: 'Fast', unread: false },
			alsoIn: ['Planet']
		});
		expect(row.classList.contains('compact')).toBe(true);
		expect(row.querySelector('.excerpt')).toBeNull();
		expect(row.querySelector('.also-in')).toBeNull();
		expect(q(row, '.visually-hidden').textContent).toBe(', also in: Planet');
	});

	it('shows a card its image when the address is safe, never a script or the app itself', async () => {
		let row = showRow({
			density: 'cards',
			headline: { flavorImage: 'https://feeds.test/cover.jpg', excerpt: 'Both lines' }
		});
		expect(q<HTMLImageElement>(row, 'img.thumb').getAttribute('src')).toBe(
			'https://feeds.test/cover.jpg'
		);
		expect(q(row, '.excerpt').classList.contains('short')).toBe(false);
		await hide();
		row = showRow({ density: 'cards', headline: { flavorImage: 'javascript:alert(1)' } });
		expect(row.querySelector('img')).toBeNull();
		await hide();
		row = showRow({
			density: 'comfortable',
			headline: { flavorImage: 'https://feeds.test/c.jpg' }
		});
		expect(row.querySelector('img')).toBeNull();
	});
});

describe('HeadlineRow: its buttons and link', () => {
	it('the star button says whether the row is starred and calls the star action', () => {
		const row = showRow({ headline: { marked: false } });
		const star = q(row, 'button.star');
		expect(star.getAttribute('aria-pressed')).toBe('false');
		expect(star.getAttribute('aria-label')).toBe('Star “Rust 2.0 released”');
		star.click();
		expect(calls.star).toHaveBeenCalledTimes(1);
		expect(calls.open).not.toHaveBeenCalled();
	});

	it('a tap on the link opens the article, and is not followed when it opened elsewhere', async () => {
		let row = showRow();
		expect(click(q(row, 'a.link'))).toBe(true);
		expect(calls.open).toHaveBeenCalledTimes(1);
		await hide();
		row = showRow({ opensElsewhere: true });
		expect(click(q(row, 'a.link'))).toBe(false);
	});

	it('while picking a tap picks the row; Shift-click extends, Ctrl-click picks at any time', async () => {
		let row = showRow({ selecting: true });
		expect(click(q(row, 'a.link'))).toBe(false);
		expect(calls.select).toHaveBeenLastCalledWith('toggle');
		click(q(row, 'a.link'), { shiftKey: true });
		expect(calls.select).toHaveBeenLastCalledWith('range');
		expect(calls.open).not.toHaveBeenCalled();
		await hide();
		row = showRow({ selecting: false });
		click(q(row, 'a.link'), { ctrlKey: true });
		expect(calls.select).toHaveBeenCalledTimes(3);
		expect(calls.open).not.toHaveBeenCalled();
	});

	it('a row that cannot be picked has no box, and Ctrl-click opens it', () => {
		const row = showRow({ selectable: false });
		expect(row.querySelector('input[type="checkbox"]')).toBeNull();
		click(q(row, 'a.link'), { ctrlKey: true });
		expect(calls.open).toHaveBeenCalledTimes(1);
	});

	it('the ⋯ panel takes the focus, acts, closes and gives the focus back to ⋯', () => {
		const row = showRow();
		const more = q<HTMLButtonElement>(row, 'button.more');
		expect(row.querySelector('[role="group"]')).toBeNull();
		more.click();
		flushSync();
		const panel = q(row, '[role="group"]');
		expect(panel.getAttribute('aria-label')).toBe('Actions for “Rust 2.0 released”');
		expect(more.getAttribute('aria-expanded')).toBe('true');
		expect(document.activeElement?.textContent).toBe('Mark above read');
		(document.activeElement as HTMLButtonElement).click();
		flushSync();
		expect(calls.above).toHaveBeenCalledTimes(1);
		expect(calls.below).not.toHaveBeenCalled();
		expect(row.querySelector('[role="group"]')).toBeNull();
		expect(document.activeElement).toBe(more);
	});

	it('Escape closes the ⋯ panel and goes no further (the open article stays)', () => {
		const row = showRow();
		const windowKeys = vi.fn();
		window.addEventListener('keydown', windowKeys);
		q(row, 'button.more').click();
		flushSync();
		const escape = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });
		q(row, '[role="group"] button').dispatchEvent(escape);
		flushSync();
		window.removeEventListener('keydown', windowKeys);
		expect(escape.defaultPrevented).toBe(true);
		expect(windowKeys).not.toHaveBeenCalled();
		expect(row.querySelector('[role="group"]')).toBeNull();
		expect(calls.above).not.toHaveBeenCalled();
		expect(document.activeElement).toBe(q(row, 'button.more'));
	});
});

describe('HeadlineRow: swipe and long press', () => {
	it('a swipe left past the threshold shows the hint, armed, and acts when let go', () => {
		const run = vi.spyOn(swipes, 'run').mockResolvedValue(true);
		const row = showRow({ headline: { unread: true } });
		const link = q(row, 'a.link');
		pointer(link, 'pointerdown', 200);
		pointer(link, 'pointermove', 160);
		const hint = q(row, '[data-swipe-hint]');
		expect(hint.dataset.swipeHint).toBe('Mark read');
		expect(hint.classList.contains('from-right')).toBe(true);
		expect(hint.classList.contains('armed')).toBe(false);
		expect(q(row, '.content').style.transform).toBe('translateX(-40px)');
		pointer(link, 'pointermove', 100);
		expect(q(row, '[data-swipe-hint]').classList.contains('armed')).toBe(true);
		pointer(link, 'pointerup', 100);
		expect(run).toHaveBeenCalledWith('left', expect.objectContaining({ id: 7 }));
		expect(row.querySelector('[data-swipe-hint]')).toBeNull();
		expect(q(row, '.content').style.transform).toBe('');
		// The click the lift makes does not open the article.
		expect(click(link)).toBe(false);
		expect(calls.open).not.toHaveBeenCalled();
	});

	it('a swipe let go short of the threshold does nothing; a swipe right shows its own hint', () => {
		const run = vi.spyOn(swipes, 'run').mockResolvedValue(true);
		const row = showRow({ headline: { marked: false } });
		const link = q(row, 'a.link');
		pointer(link, 'pointerdown', 100);
		pointer(link, 'pointermove', 150);
		expect(q(row, '[data-swipe-hint]').dataset.swipeHint).toBe('Star');
		expect(q(row, '[data-swipe-hint]').classList.contains('from-right')).toBe(false);
		pointer(link, 'pointerup', 150);
		expect(run).not.toHaveBeenCalled();
	});

	it('a side set to do nothing does not move, and a mostly vertical move is a scroll', () => {
		swipes.update({ left: 'none' });
		const row = showRow();
		const link = q(row, 'a.link');
		pointer(link, 'pointerdown', 200);
		pointer(link, 'pointermove', 100);
		expect(row.querySelector('[data-swipe-hint]')).toBeNull();
		expect(q(row, '.content').style.transform).toBe('');
		pointer(link, 'pointerup', 100);
		pointer(link, 'pointerdown', 100, 100);
		pointer(link, 'pointermove', 130, 200);
		expect(row.querySelector('[data-swipe-hint]')).toBeNull();
	});

	it('a long press on the link picks the row; on the star it does not', () => {
		vi.useFakeTimers();
		const row = showRow();
		pointer(q(row, 'a.link'), 'pointerdown', 100);
		vi.advanceTimersByTime(499);
		expect(calls.select).not.toHaveBeenCalled();
		vi.advanceTimersByTime(1);
		expect(calls.select).toHaveBeenCalledWith('toggle');
		pointer(q(row, 'a.link'), 'pointerup', 100);
		pointer(q(row, 'button.star'), 'pointerdown', 100);
		vi.advanceTimersByTime(1_000);
		expect(calls.select).toHaveBeenCalledTimes(1);
	});
});
