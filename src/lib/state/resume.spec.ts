import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rowOffsets, uniformOffsets } from '$lib/components/row-offsets';
import {
	anchorAt,
	forgetResume,
	listPathOf,
	parseResume,
	readResume,
	RESUME_KEY,
	ResumeWriter,
	resumeAtStart,
	resumeFor,
	SCROLL_WRITE_MS,
	seekStep,
	startTarget,
	takeReopened
} from './resume';
import { MemoryStorage } from '$support/memory-storage';

const ACCOUNT = 'reader@http://localhost/tt-rss/api/';

beforeEach(() => {
	vi.stubGlobal('localStorage', new MemoryStorage());
});

afterEach(() => {
	vi.useRealTimers();
	vi.unstubAllGlobals();
});

describe('parseResume', () => {
	it('keeps a valid record', () => {
		const record = {
			account: ACCOUNT,
			path: '/feed/-4/123',
			anchor: { id: 77, offset: 40, next: [78, 80] },
			scroll: 900
		};
		expect(parseResume(JSON.stringify(record))).toEqual(record);
		expect(parseResume(JSON.stringify({ account: ACCOUNT, path: '/' }))).toEqual({
			account: ACCOUNT,
			path: '/'
		});
	});

	it('drops broken, foreign or hostile values', () => {
		for (const raw of [
			null,
			'',
			'not json',
			'[1]',
			'{"path":"/feed/1"}',
			JSON.stringify({ account: ACCOUNT, path: 'https://evil.example/' }),
			JSON.stringify({ account: ACCOUNT, path: '//evil.example/feed/1' }),
			JSON.stringify({ account: ACCOUNT, path: '/settings' }),
			JSON.stringify({ account: ACCOUNT, path: '/feed/1/abc' }),
			JSON.stringify({ account: 7, path: '/feed/1' })
		]) {
			expect(parseResume(raw)).toBeUndefined();
		}
		// Positions that do not fit the place (or are not numbers) are left out, the place kept.
		expect(
			parseResume(
				JSON.stringify({
					account: ACCOUNT,
					path: '/feed/1',
					anchor: { id: 'x', offset: -1 },
					scroll: 50
				})
			)
		).toEqual({ account: ACCOUNT, path: '/feed/1' });
		expect(
			parseResume(JSON.stringify({ account: ACCOUNT, path: '/', anchor: { id: 3, offset: 0 } }))
		).toEqual({ account: ACCOUNT, path: '/' });
		// The rows below the top one: a list of ids, not too many; else the anchor stands alone.
		for (const next of ['78', [78, 'x'], [1.5], Array.from({ length: 11 }, (_, i) => i), []]) {
			expect(
				parseResume(
					JSON.stringify({ account: ACCOUNT, path: '/feed/1', anchor: { id: 3, offset: 0, next } })
				)
			).toEqual({ account: ACCOUNT, path: '/feed/1', anchor: { id: 3, offset: 0 } });
		}
	});
});

describe('startTarget', () => {
	const record = { account: ACCOUNT, path: '/cat/3/55', anchor: { id: 9, offset: 0 }, scroll: 10 };

	it('sends a start at the start address to the stored place, with its positions', () => {
		expect(startTarget('/', record)).toEqual({ path: '/cat/3/55', restore: record });
	});

	it('lets any other start address win (share target, notification, typed URL)', () => {
		expect(startTarget('/share', record)).toEqual({ path: '/share', restore: undefined });
		expect(startTarget('/feed/2/8', record)).toEqual({ path: '/feed/2/8', restore: undefined });
		// The same list with another article: that article, and no old positions.
		expect(startTarget('/cat/3/56', record).restore).toBeUndefined();
	});

	it('restores a reload of the stored place itself, and does nothing without a record', () => {
		expect(startTarget('/cat/3/55', record).restore).toBe(record);
		expect(startTarget('/', undefined)).toEqual({ path: '/', restore: undefined });
	});
});

// Chaos seeds 2014, 2019 (docs/reliability.md): opened (read), marked unread, reloaded — the start
// opened the article again and marked it read, overturning the reader's "Mark unread".
describe('takeReopened: the start going back to the open article is not the reader opening it', () => {
	const left = (path: string): void =>
		localStorage.setItem(RESUME_KEY, JSON.stringify({ account: ACCOUNT, path }));

	it('a reload of the open article, or a start at `/` that goes back to it: once', () => {
		left('/feed/-4/120');
		expect(resumeAtStart('/feed/-4/120')).toBe('/feed/-4/120');
		expect(takeReopened('/feed/-4/120', ACCOUNT)).toBe(true);
		// Opened again later (Back, then the same row): the reader's opening.
		expect(takeReopened('/feed/-4/120', ACCOUNT)).toBe(false);
		expect(resumeAtStart('/')).toBe('/feed/-4/120');
		expect(takeReopened('/feed/-4/120', ACCOUNT)).toBe(true);
	});

	it('not an article the reader did not have open, nor another account’s, nor after going elsewhere', () => {
		left('/feed/-4/120');
		resumeAtStart('/feed/1/7'); // a notification's article
		expect(takeReopened('/feed/1/7', ACCOUNT)).toBe(false);
		left('/feed/-4');
		resumeAtStart('/feed/-4');
		expect(takeReopened('/feed/-4/120', ACCOUNT)).toBe(false);
		left('/feed/-4/120');
		resumeAtStart('/feed/-4/120');
		expect(takeReopened('/feed/-4/120', 'other@http://localhost/tt-rss/api/')).toBe(false);
		// The reader went to another place first (signed in again after an ended session).
		resumeAtStart('/feed/-4/120');
		const writer = new ResumeWriter();
		writer.start(ACCOUNT);
		writer.place('/feed/-4');
		writer.place('/feed/-4/120');
		expect(takeReopened('/feed/-4/120', ACCOUNT)).toBe(false);
	});
});

describe('resumeFor / forgetResume', () => {
	it('applies only the account’s own record, and forgets it', () => {
		localStorage.setItem(RESUME_KEY, JSON.stringify({ account: ACCOUNT, path: '/feed/1' }));
		expect(resumeFor(ACCOUNT)?.path).toBe('/feed/1');
		expect(resumeFor('second@http://localhost/tt-rss/api/')).toBeUndefined();
		expect(resumeFor(undefined)).toBeUndefined();
		forgetResume();
		expect(readResume()).toBeUndefined();
	});
});

describe('anchorAt / listPathOf', () => {
	it('names the headline at the top edge and the pixels past its top', () => {
		const ids = [10, 11, 12, 13];
		expect(anchorAt(0, uniformOffsets(4, 100), (i) => ids[i])).toBeUndefined();
		expect(anchorAt(250, uniformOffsets(4, 100), (i) => ids[i])).toEqual({
			id: 12,
			offset: 50,
			next: [13]
		});
		expect(anchorAt(350, uniformOffsets(4, 100), (i) => ids[i])).toEqual({ id: 13, offset: 50 });
		expect(anchorAt(900, uniformOffsets(4, 100), (i) => ids[i])).toBeUndefined();
		// The rows below it, at most ten.
		const many = Array.from({ length: 30 }, (_, i) => 100 + i);
		expect(anchorAt(100, uniformOffsets(100, 100), (i) => many[i])?.next).toEqual([
			102, 103, 104, 105, 106, 107, 108, 109, 110, 111
		]);
	});

	it('reads rows of their own heights (cards with and without an image)', () => {
		const rows = rowOffsets([280, 130, 130, 280]);
		expect(anchorAt(300, rows, (i) => [10, 11, 12, 13][i])).toEqual({
			id: 11,
			offset: 20,
			next: [12, 13]
		});
	});

	it('finds the list of a place', () => {
		expect(listPathOf('/feed/-4/12')).toBe('/feed/-4');
		expect(listPathOf('/tag/linux')).toBe('/tag/linux');
		expect(listPathOf('/')).toBeUndefined();
	});
});

describe('seekStep', () => {
	const rows = (n: number, from = 1) => Array.from({ length: n }, (_, i) => ({ id: from + i }));
	const at = (id: number) => ({ id, offset: 30 });
	const list = {
		items: rows(50),
		loading: false,
		complete: false,
		error: undefined,
		answered: true
	};

	it('scrolls to the row once it is loaded; only the server’s answer makes it final', () => {
		expect(seekStep({ ...list, answered: false }, at(20))).toEqual({
			type: 'scroll',
			index: 19,
			offset: 30,
			final: false
		});
		expect(seekStep(list, at(20))).toEqual({ type: 'scroll', index: 19, offset: 30, final: true });
		expect(seekStep({ ...list, loading: true }, at(20))).toMatchObject({ final: false });
	});

	it('puts the first row that followed a headline gone from the list in its place', () => {
		// Opened there, the article is read now: a list of unread ones no longer holds it.
		const left = { id: 20, offset: 30, next: [21, 22, 23] };
		const answer = { ...list, items: list.items.filter((h) => h.id !== 20 && h.id !== 21) };
		expect(seekStep(answer, left)).toEqual({ type: 'scroll', index: 19, offset: 0, final: true });
		// Cached rows are not the server's word that it is gone.
		expect(seekStep({ ...answer, answered: false }, left)).toEqual({ type: 'wait' });
		// The headline itself, where it is still there.
		expect(seekStep(list, left)).toEqual({ type: 'scroll', index: 19, offset: 30, final: true });
		// Neither it nor the rows below it yet: more pages.
		expect(seekStep(list, { id: 500, offset: 30, next: [501] })).toEqual({ type: 'more' });
	});

	it('loads more pages until the row is found, within the bound', () => {
		expect(seekStep(list, at(500))).toEqual({ type: 'more' });
		expect(seekStep({ ...list, loading: true }, at(500))).toEqual({ type: 'wait' });
		expect(seekStep({ ...list, answered: false }, at(500))).toEqual({ type: 'wait' });
		expect(seekStep({ ...list, items: rows(1000) }, at(5000), 0)).toEqual({ type: 'give-up' });
		expect(seekStep({ ...list, complete: true }, at(500))).toEqual({ type: 'give-up' });
		// A list whose paging starts over (new articles at the top) never grows: pages are counted.
		expect(seekStep(list, at(500), 7)).toEqual({ type: 'more' });
		expect(seekStep(list, at(500), 8)).toEqual({ type: 'give-up' });
	});

	it('waits for cached rows when the server cannot be reached', () => {
		expect(seekStep({ ...list, error: 'offline' }, at(500))).toEqual({ type: 'wait' });
	});
});

describe('ResumeWriter', () => {
	it('writes the place at once and positions only once scrolling stops', () => {
		vi.useFakeTimers();
		const elsewhere = vi.fn();
		const writer = new ResumeWriter(elsewhere);
		writer.start(ACCOUNT);
		writer.place('/feed/-4');
		expect(readResume()).toEqual({ account: ACCOUNT, path: '/feed/-4' });
		expect(elsewhere).toHaveBeenCalledTimes(1);

		const setItem = vi.spyOn(localStorage, 'setItem');
		for (let i = 1; i <= 20; i++) writer.listScrolled({ id: 100 + i, offset: i });
		expect(setItem).not.toHaveBeenCalled();
		vi.advanceTimersByTime(SCROLL_WRITE_MS);
		expect(setItem).toHaveBeenCalledTimes(1);
		expect(readResume()?.anchor).toEqual({ id: 120, offset: 20 });
		// Deep in the list: the start snapshot (a list at its top) is no longer where the reader is.
		expect(elsewhere).toHaveBeenCalledTimes(2);

		// An article of the same list keeps the list's position; its own scroll is added.
		writer.place('/feed/-4/120');
		writer.articleScrolled(640.4);
		writer.flush();
		expect(readResume()).toEqual({
			account: ACCOUNT,
			path: '/feed/-4/120',
			anchor: { id: 120, offset: 20 },
			scroll: 640
		});

		// Another list starts at its top; screens that are not places are not kept.
		writer.place('/cat/3');
		writer.place('/settings');
		expect(readResume()).toEqual({ account: ACCOUNT, path: '/cat/3' });
		writer.listScrolled(undefined);
		writer.flush();
		expect(readResume()?.anchor).toBeUndefined();
	});

	it('starts from the account’s record, never another account’s, and stops at sign-out', () => {
		localStorage.setItem(
			RESUME_KEY,
			JSON.stringify({ account: 'second@http://localhost/tt-rss/api/', path: '/feed/9' })
		);
		const writer = new ResumeWriter();
		writer.start(ACCOUNT);
		expect(writer.record).toEqual({ account: ACCOUNT, path: '/' });
		writer.stop();
		writer.place('/feed/1');
		writer.flush();
		expect(readResume()?.account).not.toBe(ACCOUNT);
	});
});
