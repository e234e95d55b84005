import { describe, expect, it } from 'vitest';
import { checkScreen, checkServer, ReaderModel, rng, type ArticleState } from './model';

const state = (unread: boolean, marked = false, published = false): ArticleState => ({
	unread,
	marked,
	published
});

describe('the chaos checker', () => {
	it('the last intent per article and field wins; undone operations do not count', () => {
		const model = new ReaderModel();
		model.record(0, 1, 'marked', true);
		model.record(1, 1, 'marked', false);
		model.record(2, 1, 'unread', false);
		model.record(3, 1, 'unread', true);
		model.undo(3);
		expect(model.expected(1, 'marked')).toBe(false);
		expect(model.expected(1, 'unread')).toBe(false);
		expect(model.expected(1, 'published')).toBeUndefined();
	});

	it('names a change the server lost, one nobody asked for, and lets failed ones pass', () => {
		const model = new ReaderModel();
		model.record(0, 1, 'marked', true);
		model.record(1, 2, 'unread', false);
		model.undo(1);
		const initial = new Map([
			[1, state(true)],
			[2, state(true)],
			[3, state(true)],
			[4, state(true)]
		]);
		const final = new Map([
			[1, state(true, false)],
			[2, state(false)],
			[3, state(true, false, true)],
			[4, state(true)]
		]);
		expect(checkServer(model, initial, final, new Set())).toEqual([
			{ kind: 'lost', detail: 'article 1 marked: reader last asked true, server has false' },
			{
				kind: 'widened',
				detail:
					'article 2 unread: was true, nobody asked, server has false (its only change was undone)'
			},
			{ kind: 'spurious', detail: 'article 3 published: was false, nobody asked, server has true' }
		]);
		expect(
			checkServer(model, initial, final, new Set(['1:marked', '2:unread', '3:published']))
		).toEqual([]);
	});

	it('compares the rows on screen with the server', () => {
		const final = new Map([
			[1, state(false, true)],
			[2, state(true)]
		]);
		expect(
			checkScreen(
				[
					{ id: 1, unread: false, marked: true },
					{ id: 2, unread: false, marked: false }
				],
				final
			)
		).toEqual([{ kind: 'stale-screen', detail: 'row 2 shows unread=false, server has true' }]);
	});

	it('the same seed gives the same numbers', () => {
		const a = rng(42);
		const b = rng(42);
		const xs = Array.from({ length: 5 }, () => a.int(1000));
		expect(Array.from({ length: 5 }, () => b.int(1000))).toEqual(xs);
		expect(new Set(xs).size).toBeGreaterThan(1);
	});
});
