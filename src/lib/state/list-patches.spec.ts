/** The headline list's pure row rules (list-patches.ts) and its request (list-query.ts). */
import { describe, expect, it } from 'vitest';
import type { Headline } from '$lib/api';
import { headline } from '$lib/outbox/testing/fake-server';
import { patchReadRows, patchRows, patchRowsEach, withNewRows } from './list-patches';
import { headlinesParams, type ListQuery } from './list-query';

const rows = (): Headline[] => [headline(1, { unread: true }), headline(2, { unread: true })];

describe('list patches', () => {
	it("applies the reader's change to the rows named, leaving the others as they were", () => {
		const items = rows();
		const next = patchRows(items, [2], { unread: false });
		expect(next.map((h) => h.unread)).toEqual([true, false]);
		expect(next[0]).toBe(items[0]);
		expect(items[1]?.unread).toBe(true);
	});

	it('applies each change to its own row in one pass, a later change to one row on top', () => {
		const items = [...rows(), headline(3, { unread: true })];
		const next = patchRowsEach(items, [
			{ id: 1, patch: { unread: false } },
			{ id: 3, patch: { marked: true } },
			{ id: 1, patch: { marked: true } }
		]);
		expect(next.map((h) => [h.unread, h.marked])).toEqual([
			[false, true],
			[true, items[1]?.marked],
			[true, true]
		]);
		expect(next[1]).toBe(items[1]);
	});

	it('a read older than the reader’s change of a row leaves that row; nothing to apply keeps the array', () => {
		const items = rows();
		const changedAt = new Map([[1, 500]]);
		const read = [
			{ id: 1, unread: true, marked: true },
			{ id: 2, unread: false, marked: true }
		];
		const next = patchReadRows(items, read, changedAt, 400);
		expect(next[0]).toBe(items[0]);
		expect(next[1]).toMatchObject({ unread: false, marked: true });
		expect(patchReadRows(items, [read[0] as { id: number }], changedAt, 400)).toBe(items);
	});

	it('appends only the rows of a page not already loaded', () => {
		expect(withNewRows(rows(), [headline(2), headline(3)]).map((h) => h.id)).toEqual([1, 2, 3]);
	});
});

describe('headlinesParams', () => {
	const query: ListQuery = {
		kind: 'cat',
		id: '4',
		viewMode: 'unread',
		orderBy: '',
		search: '',
		searchMode: 'this_feed'
	};

	it('asks for a category with its subcategories, the first page without a first-id check', () => {
		const params = headlinesParams(
			query,
			{ skip: 0, limit: 50, checkFirstId: 9 },
			{ includeHeader: true },
			undefined
		);
		expect(params).toMatchObject({ feedId: 4, isCat: true, includeNested: true, limit: 50 });
		expect(params.checkFirstId).toBeUndefined();
		expect(params.orderBy).toBeUndefined();
		expect(
			headlinesParams(
				query,
				{ skip: 50, limit: 50, checkFirstId: 9 },
				{ includeHeader: true },
				undefined
			).checkFirstId
		).toBe(9);
	});

	it('asks for the bodies only for the cards density: tt-rss names an image only with them', () => {
		const page = { skip: 0, limit: 50 };
		expect(headlinesParams(query, page, { includeHeader: true }, undefined).showContent).toBe(
			undefined
		);
		expect(headlinesParams(query, page, { includeHeader: true }, undefined, true).showContent).toBe(
			true
		);
	});
});
