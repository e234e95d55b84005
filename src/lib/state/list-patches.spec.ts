/** The headline list's pure row rules (list-patches.ts) and its request (list-query.ts). */
import { describe, expect, it } from 'vitest';
import type { Headline } from '$lib/api';
import { headline } from '$support/factories';
import {
	keepChangedSince,
	noteChanged,
	patchReadRows,
	patchRows,
	patchRowsEach,
	withNewRows,
	type ChangedAt
} from './list-patches';
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

	it('a read older than the reader’s change of a field leaves that field; nothing to apply keeps the array', () => {
		const changedAt: ChangedAt = new Map();
		// The reader marked row 1 read at 500.
		const items = patchRows(rows(), [1], { unread: false });
		noteChanged(changedAt, [{ id: 1, patch: { unread: false } }], 500);
		const read = [
			{ id: 1, unread: true, marked: !items[0]?.marked },
			{ id: 2, unread: false, marked: true }
		];
		const next = patchReadRows(items, read, changedAt, 400);
		// Row 1: its read flag is the reader's (changed after the read), its star the read's.
		expect(next[0]).toMatchObject({ unread: false, marked: !items[0]?.marked });
		expect(next[1]).toMatchObject({ unread: false, marked: true });
		// Read after the change: the read’s.
		expect(patchReadRows(items, read, changedAt, 501)[0]?.unread).toBe(true);
		expect(patchReadRows(items, [{ ...(items[0] as Headline) }], changedAt, 400)).toBe(items);
	});

	it('keepChangedSince keeps, of an article read, only the fields changed at or after the read', () => {
		const changedAt: ChangedAt = new Map();
		noteChanged(changedAt, [{ id: 7, patch: { unread: false } }], 100);
		noteChanged(changedAt, [{ id: 7, patch: { marked: true } }], 300);
		const read = { id: 7, unread: true, marked: false, published: true };
		const shown = { unread: false, marked: true, published: false };
		expect(keepChangedSince(read, shown, changedAt, 200)).toEqual({
			id: 7,
			unread: true,
			marked: true,
			published: true
		});
		expect(keepChangedSince(read, shown, changedAt, 400)).toBe(read);
		expect(keepChangedSince(read, undefined, changedAt, 0)).toBe(read);
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
