import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	groupDuplicates,
	linkKey,
	MIN_TITLE_CHARS,
	TITLE_WINDOW_S,
	titleKey,
	type DedupeRow
} from './dedupe';

const DAY = 24 * 3600;
const T0 = 1_800_000_000;

function row(id: number, feedId: number | null, link: string, title: string, updated = T0) {
	return { id, feedId, link, title, updated } satisfies DedupeRow;
}

/** The groups as sets of ids, independent of order: each sorted, then all sorted. */
function partition(rows: readonly DedupeRow[]): number[][] {
	const { shown, copies } = groupDuplicates(rows);
	return shown
		.map((head) => [head.id, ...(copies.get(head.id) ?? []).map((c) => c.id)].sort((a, b) => a - b))
		.sort((a, b) => a[0]! - b[0]!);
}

describe('linkKey', () => {
	it('leaves out tracking parameters, www, the scheme, a trailing slash and the fragment', () => {
		const plain = linkKey('https://example.com/news/story-1');
		expect(plain).toBe('example.com/news/story-1');
		for (const link of [
			'http://www.example.com/news/story-1/',
			'https://EXAMPLE.com/news/story-1?utm_source=rss&utm_medium=feed&utm_campaign=x',
			'https://example.com:443/news/story-1?fbclid=abc#comments',
			'https://example.com/news/story-1?gclid=1&mc_cid=2&UTM_Content=3',
			'  https://www.example.com/news/story-1  '
		]) {
			expect(linkKey(link), link).toBe(plain);
		}
	});

	it('keeps what names a different page: other parameters (in any order), paths, hosts', () => {
		expect(linkKey('https://example.com/item?id=1&page=2')).toBe(
			linkKey('https://example.com/item?page=2&utm_source=x&id=1')
		);
		expect(linkKey('https://example.com/item?id=1')).not.toBe(
			linkKey('https://example.com/item?id=2')
		);
		expect(linkKey('https://example.com/a')).not.toBe(linkKey('https://example.com/b'));
		expect(linkKey('https://news.example.com/a')).not.toBe(linkKey('https://example.com/a'));
		expect(linkKey('https://example.com:8080/a')).not.toBe(linkKey('https://example.com/a'));
	});

	it('has no key for what is not a web address', () => {
		for (const link of ['', 'not a url', 'mailto:a@example.com', 'javascript:alert(1)', '/a/b']) {
			expect(linkKey(link), link).toBeUndefined();
		}
	});

	it('is idempotent over its own output read as an address', () => {
		fc.assert(
			fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (url) => {
				const key = linkKey(url);
				if (key === undefined) return;
				expect(linkKey(`https://${key}`)).toBe(key);
				expect(linkKey(`http://www.${key}`)).toBe(key);
			})
		);
	});

	it('does not change with tracking parameters added', () => {
		fc.assert(
			fc.property(
				fc.webUrl({ withQueryParameters: true }),
				fc.constantFrom('utm_source', 'utm_medium', 'fbclid', 'gclid', 'msclkid', 'mc_eid'),
				fc.stringMatching(/^[a-z0-9]{0,8}$/),
				(url, name, value) => {
					const key = linkKey(url);
					const parsed = new URL(url);
					parsed.hash = '';
					parsed.searchParams.append(name, value);
					expect(linkKey(parsed.href)).toBe(key);
				}
			)
		);
	});
});

describe('titleKey', () => {
	it('leaves out case, accents, punctuation and spacing', () => {
		expect(titleKey('Café opens on  Main Street!')).toBe('cafe opens on main street');
		expect(titleKey('CAFE opens on Main Street')).toBe(titleKey('Café opens on  Main Street!'));
	});

	it('has no key for a title too short to tell stories apart', () => {
		expect(titleKey('News')).toBeUndefined();
		expect(titleKey('')).toBeUndefined();
		expect(titleKey('x'.repeat(MIN_TITLE_CHARS))).toBeDefined();
	});

	it('is idempotent', () => {
		fc.assert(
			fc.property(fc.string({ maxLength: 60 }), (title) => {
				const key = titleKey(title);
				if (key !== undefined) expect(titleKey(key)).toBe(key);
			})
		);
	});
});

describe('groupDuplicates', () => {
	it('shows one row for the same link in two feeds, the first in the list’s order', () => {
		const rows = [
			row(1, 10, 'https://example.com/a?utm_source=rss', 'Story A in feed ten'),
			row(2, 11, 'https://example.com/b', 'Story B'),
			row(3, 11, 'https://www.example.com/a/', 'Story A as feed eleven says it')
		];
		const groups = groupDuplicates(rows);
		expect(groups.shown.map((r) => r.id)).toEqual([1, 2]);
		expect(groups.copies.get(1)?.map((r) => r.id)).toEqual([3]);
		expect(groups.shownFor.get(3)).toBe(1);
		expect(groups.shownFor.get(1)).toBe(1);
		expect(groups.shownFor.has(2)).toBe(false);
	});

	it('groups the same title from different feeds within the window, not beyond it', () => {
		const title = 'A big storm reaches the coast';
		const near = [
			row(1, 10, 'https://a.example/1', title),
			row(2, 11, 'https://b.example/9', `${title}.`, T0 + 2 * DAY)
		];
		expect(partition(near)).toEqual([[1, 2]]);
		const far = [
			row(1, 10, 'https://a.example/1', title),
			row(2, 11, 'https://b.example/9', title, T0 + TITLE_WINDOW_S + 1)
		];
		expect(partition(far)).toEqual([[1], [2]]);
	});

	it('never groups two articles of one feed by their title alone', () => {
		const title = 'Weekly links and notes for you';
		const rows = [
			row(1, 10, 'https://a.example/1', title),
			row(2, 10, 'https://a.example/2', title)
		];
		expect(partition(rows)).toEqual([[1], [2]]);
	});

	it('closes the relation: a story in three feeds is one group', () => {
		const rows = [
			row(1, 10, 'https://a.example/story', 'First wording of the story'),
			row(2, 11, 'https://a.example/story?utm_medium=social', 'Another wording entirely'),
			row(3, 12, 'https://c.example/x', 'Another wording entirely', T0 + DAY)
		];
		expect(partition(rows)).toEqual([[1, 2, 3]]);
	});

	it('keeps one of an article listed twice', () => {
		const a = row(1, 10, 'https://a.example/1', 'The one and only story');
		expect(groupDuplicates([a, a]).shown).toEqual([a]);
	});

	// Rows drawn from a few feeds, links and titles, so that groups happen often.
	const arbRows = fc
		.array(
			fc.record({
				feedId: fc.constantFrom(1, 2, 3, null),
				link: fc.constantFrom(
					'https://a.example/1',
					'https://www.a.example/1/?utm_source=x',
					'http://a.example/1#top',
					'https://a.example/2',
					'https://b.example/1?fbclid=z',
					'',
					'nonsense'
				),
				title: fc.constantFrom(
					'Storm reaches the coast',
					'storm reaches the COAST!',
					'Elections tomorrow everywhere',
					'Short',
					''
				),
				updated: fc.integer({ min: T0, max: T0 + 10 * DAY })
			}),
			{ maxLength: 25 }
		)
		.map((rows) => rows.map((r, i) => ({ ...r, id: i + 1 })));

	it('is independent of the rows’ order', () => {
		fc.assert(
			fc.property(
				arbRows.chain((rows) =>
					fc.tuple(
						fc.constant(rows),
						fc.shuffledSubarray(rows, { minLength: rows.length, maxLength: rows.length })
					)
				),
				([rows, shuffled]) => {
					expect(partition(shuffled)).toEqual(partition(rows));
				}
			)
		);
	});

	it('shows every row or names it a copy of a shown one, once, keeping the order', () => {
		fc.assert(
			fc.property(arbRows, (rows) => {
				const { shown, copies, shownFor } = groupDuplicates(rows);
				const copyIds = [...copies.values()].flat().map((r) => r.id);
				const all = [...shown.map((r) => r.id), ...copyIds].sort((a, b) => a - b);
				expect(all).toEqual(rows.map((r) => r.id));
				const order = rows.map((r) => r.id);
				expect(shown.map((r) => r.id)).toEqual(order.filter((id) => !copyIds.includes(id)));
				for (const [head, list] of copies) {
					// The shown row comes first in the list's order.
					for (const copy of list) {
						expect(order.indexOf(copy.id)).toBeGreaterThan(order.indexOf(head));
						expect(shownFor.get(copy.id)).toBe(head);
					}
				}
			})
		);
	});

	it('is idempotent: the rows shown have no duplicates left', () => {
		fc.assert(
			fc.property(arbRows, (rows) => {
				const shown = groupDuplicates(rows).shown;
				expect(groupDuplicates(shown).shown).toEqual(shown);
			})
		);
	});

	it('groups one feed’s articles only by their links', () => {
		fc.assert(
			fc.property(arbRows, (rows) => {
				const oneFeed = rows.map((r) => ({ ...r, feedId: 1 }));
				const { copies } = groupDuplicates(oneFeed);
				const byId = new Map(oneFeed.map((r) => [r.id, r]));
				for (const [head, list] of copies) {
					const key = linkKey(byId.get(head)!.link);
					for (const copy of list) {
						expect(key).toBeDefined();
						expect(linkKey(copy.link)).toBe(key);
					}
				}
			})
		);
	});
});
