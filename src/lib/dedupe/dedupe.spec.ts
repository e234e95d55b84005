import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	CONTENT_WORDS,
	contentKey,
	duplicatesMemo,
	groupDuplicates,
	MIN_TITLE_CHARS,
	MIN_TITLE_WORDS,
	hashOf,
	NO_KEY,
	NOT_ASCII,
	TITLE_WINDOW_S,
	titleHash,
	titleKey,
	type DedupeRow
} from './dedupe';
import { linkKey, linkKeyByUrl } from './link-key';
import { words } from '$lib/search/text';

const DAY = 24 * 3600;
const T0 = 1_800_000_000;

function row(
	id: number,
	feedId: number | null,
	link: string,
	title: string,
	updated = T0,
	extra: Partial<DedupeRow> = {}
) {
	return { id, feedId, link, title, updated, ...extra } satisfies DedupeRow;
}

/** An excerpt long enough to compare (`CONTENT_WORDS` words and more). */
const STORM_TEXT =
	'The storm made landfall early on Sunday near the harbour, bringing winds of more than a hundred kilometres an hour';

/** The groups as sets of ids, independent of order: each sorted, then all sorted. */
function partition(rows: readonly DedupeRow[]): number[][] {
	const { shown, copies } = groupDuplicates(rows);
	return shown
		.map((head) => [head.id, ...(copies.get(head.id) ?? []).map((c) => c.id)].sort((a, b) => a - b))
		.sort((a, b) => a[0]! - b[0]!);
}

describe('linkKey', () => {
	it('leaves out tracking parameters, www, the scheme and a trailing slash', () => {
		const plain = linkKey('https://example.com/news/story-1');
		expect(plain).toBe('example.com/news/story-1');
		for (const link of [
			'http://www.example.com/news/story-1/',
			'https://EXAMPLE.com/news/story-1?utm_source=rss&utm_medium=feed&utm_campaign=x',
			'https://example.com:443/news/story-1?fbclid=abc',
			'https://example.com/news/story-1?gclid=1&mc_cid=2&UTM_Content=3',
			'  https://www.example.com/news/story-1  '
		]) {
			expect(linkKey(link), link).toBe(plain);
		}
	});

	it('keeps the fragment: one page’s sections are different articles', () => {
		expect(linkKey('https://example.com/changes#v2')).toBe('example.com/changes#v2');
		expect(linkKey('https://example.com/changes#v2')).not.toBe(
			linkKey('https://example.com/changes#v3')
		);
		expect(linkKey('https://example.com/changes#')).toBe('example.com/changes');
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

	it('reads a simple link as the URL parser does', () => {
		const odd = fc.constantFrom(
			'http://EXAMPLE.com/A/b/',
			'https://www.example.com:8080/x',
			'https://example.com:080/x',
			'https://example.com:443',
			'http://127.1/a',
			'http://0x7f.0.0.1/a',
			'http://example.com/a/../b',
			'http://example.com/./a/.',
			'http://example.com/a b',
			'http://example.com/a%20b',
			'http://example.com/a\\b',
			'http://ex_ample.com/a',
			'http://example.com./a',
			'https://xn--bcher-kva.example/ü',
			'http://[::1]/a',
			'HTTP://Example.COM',
			'http://example.com/café',
			'https://example.com/a?b=1&a=2&utm_source=x',
			'https://example.com/a?b&a=',
			'https://example.com/a?a=b=c',
			'https://example.com/a?&&a=1&',
			'https://example.com/a?a=1#x?y',
			'https://example.com/a?a=%41',
			'https://example.com/a?a=+b',
			'https://example.com/a#',
			'https://example.com/a?',
			'http://example.com:/a',
			'http://example.com:65535/a',
			'http://example.com:99999/a',
			'http://example.com:8080',
			'http://example.com:8080?a=1',
			'http://a..b/x',
			'http://.a.b/x',
			'http://-a-.example/x',
			'http://1.2.3.4/x',
			'http://1.2.3.example/x',
			'http://example.123/x',
			'https://WWW.Example.com//a//',
			'https://www./a',
			'https://example.com?b=2&a=1#f',
			'https://example.com#f',
			'https://example.com/a?b=1#x#y',
			'https://example.com/%7e/a',
			'http://example.com\\a',
			'https://example.com/a\tb',
			'http:/example.com/a',
			'http://user@example.com/a',
			'https://example.com/a/./b',
			'https://example.com/a/../b',
			'https://example.com/.',
			'https://example.com/..',
			'https://example.com/.a/..b/...',
			'https://example.com/a/.?x=1',
			'HTTPS://WWW.Example.com/a',
			'https://www.example.com:8080/a//',
			'https://example.com/?utm_source=a&b=1&utm_medium=2',
			'https://example.com/?a==1',
			'https://example.com/?&&a=1&'
		);
		fc.assert(
			fc.property(
				fc.oneof(
					fc.webUrl({ withFragments: true, withQueryParameters: true }),
					odd,
					fc
						.tuple(
							fc.constantFrom('http://', 'https://', 'HTTPS://'),
							fc.stringMatching(/^[a-zA-Z0-9._-]{0,12}$/),
							fc.stringMatching(/^(:[0-9]{0,6})?$/),
							fc.stringMatching(/^[/a-zA-Z0-9.%~!$&'()*+,;=:@-]{0,16}$/),
							fc.stringMatching(/^(\?[a-zA-Z0-9=&_.%+-]{0,12})?$/),
							fc.stringMatching(/^(#[a-zA-Z0-9?/#.-]{0,8})?$/)
						)
						.map((parts) => parts.join(''))
				),
				(url) => {
					expect(linkKey(url)).toBe(linkKeyByUrl(url.trim()));
				}
			)
		);
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

	it('has no key for a title too short or too generic to tell stories apart', () => {
		expect(titleKey('News')).toBeUndefined();
		expect(titleKey('')).toBeUndefined();
		expect(titleKey('Daily digest')).toBeUndefined();
		expect(titleKey('Weekly links roundup')).toBeUndefined();
		expect(titleKey(Array(MIN_TITLE_WORDS).fill('xyz').join(' '))).toBeDefined();
		expect(titleKey(Array(MIN_TITLE_WORDS).fill('x').join(' '))).toBeUndefined();
		expect(titleKey(`${'x'.repeat(MIN_TITLE_CHARS)} b c d`)).toBeDefined();
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

describe('contentKey', () => {
	it('is the excerpt’s first words, folded, when it has enough of them', () => {
		expect(contentKey(STORM_TEXT)?.split(' ')).toHaveLength(CONTENT_WORDS);
		expect(contentKey(STORM_TEXT.toUpperCase())).toBe(contentKey(STORM_TEXT));
		expect(contentKey('Too short to say anything')).toBeUndefined();
		expect(contentKey('')).toBeUndefined();
		expect(contentKey(undefined)).toBeUndefined();
	});

	it('reads an article’s HTML as its text, so a synced row (no excerpt) matches a listed one', () => {
		const html = `<figure><img src="a.jpg" alt="The harbour"></figure><p>${STORM_TEXT.replace(
			'landfall',
			'<b>landfall</b>'
		)}</p><script>var x = 1;</script>`;
		expect(contentKey(html)).toBe(contentKey(STORM_TEXT));
		expect(contentKey(`<p>The &amp; ${STORM_TEXT}</p>`)).not.toBe(contentKey(STORM_TEXT));
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
		const text = { excerpt: STORM_TEXT };
		const near = [
			row(1, 10, 'https://a.example/1', title, T0, text),
			row(2, 11, 'https://b.example/9', `${title}.`, T0 + 2 * DAY, text)
		];
		expect(partition(near)).toEqual([[1, 2]]);
		const far = [
			row(1, 10, 'https://a.example/1', title, T0, text),
			row(2, 11, 'https://b.example/9', title, T0 + TITLE_WINDOW_S + 1, text)
		];
		expect(partition(far)).toEqual([[1], [2]]);
	});

	it('never groups by a title alone: the content must match too', () => {
		const title = 'A big storm reaches the coast';
		const rows = [
			row(1, 10, 'https://a.example/1', title, T0, { excerpt: STORM_TEXT }),
			row(2, 11, 'https://b.example/9', title, T0 + 3600, {
				excerpt: `Opinion: ${STORM_TEXT}`
			}),
			row(3, 12, 'https://c.example/9', title, T0 + 7200)
		];
		expect(partition(rows)).toEqual([[1], [2], [3]]);
	});

	it('takes a title one feed uses twice for a series, not a story', () => {
		const title = 'What happened in the markets today';
		const text = { excerpt: STORM_TEXT };
		const rows = [
			row(1, 10, 'https://a.example/1', title, T0, text),
			row(2, 10, 'https://a.example/2', title, T0 + DAY, text),
			row(3, 11, 'https://b.example/1', title, T0, text)
		];
		expect(partition(rows)).toEqual([[1], [2], [3]]);
	});

	// Review of cd7e7e8: generic titles and links said "same story" of different articles, and
	// reading the one shown marked the others read on the server.
	it('two feeds’ own "Daily digest" posts (different links) stay two rows', () => {
		const { shown, copies } = groupDuplicates([
			row(1, 10, 'https://blog-a.example/digest/2026-12-06', 'Daily digest'),
			row(2, 20, 'https://news-b.example/p/98765', 'Daily Digest', T0 + 2 * 3600)
		]);
		expect(copies.size).toBe(0);
		expect(shown.map((r) => r.id)).toEqual([1, 2]);
	});

	it('a feed whose items all link to its home page keeps every item', () => {
		// Common for status pages, comics and "announcements" feeds: every <item><link> is the site.
		const rows = [
			row(1, 10, 'https://status.example.com/', 'Scheduled maintenance on Tuesday'),
			row(2, 10, 'https://status.example.com/', 'Incident: API latency'),
			row(3, 10, 'https://status.example.com', 'Resolved: login failures')
		];
		const { shown } = groupDuplicates(rows);
		expect(shown.map((r) => r.id)).toEqual([1, 2, 3]);
	});

	it('a site’s root or a feed’s own site address says nothing, even across feeds', () => {
		const rows = [
			row(1, 10, 'https://example.com/', 'Scheduled maintenance on Tuesday'),
			row(2, 11, 'https://www.example.com', 'Something else entirely here'),
			row(3, 12, 'https://blog.example/news', 'A post of the blog today', T0, {
				siteUrl: 'https://blog.example/news/'
			}),
			row(4, 13, 'https://blog.example/news', 'Another feed of the same blog', T0, {
				siteUrl: 'https://blog.example/news'
			})
		];
		expect(partition(rows)).toEqual([[1], [2], [3], [4]]);
	});

	it('items of one feed that differ only by #fragment stay apart, and so do other feeds’', () => {
		const rows = [
			row(1, 10, 'https://example.com/changes#v2', 'Version two released now'),
			row(2, 10, 'https://example.com/changes#v3', 'Version three released now'),
			row(3, 11, 'https://example.com/changes#v4', 'Version four released now'),
			row(4, 10, 'https://example.com/faq', 'Questions and answers one'),
			row(5, 10, 'https://example.com/faq#top', 'Questions and answers two'),
			row(6, 11, 'https://example.com/faq', 'Questions and answers three')
		];
		expect(partition(rows)).toEqual([[1], [2], [3], [4, 6], [5]]);
	});

	it('a link two items of one feed share joins nothing, even in another feed', () => {
		const rows = [
			row(1, 10, 'https://example.com/live', 'Live blog morning part'),
			row(2, 10, 'https://example.com/live', 'Live blog evening part'),
			row(3, 11, 'https://example.com/live', 'Live blog as another feed says')
		];
		expect(partition(rows)).toEqual([[1], [2], [3]]);
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
		const text = { excerpt: STORM_TEXT };
		const rows = [
			row(1, 10, 'https://a.example/story', 'First wording of the story'),
			row(
				2,
				11,
				'https://a.example/story?utm_medium=social',
				'Another wording of it entirely',
				T0,
				text
			),
			row(3, 12, 'https://c.example/x', 'Another wording of it entirely', T0 + DAY, text)
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
					'https://b.example/',
					'',
					'nonsense'
				),
				title: fc.constantFrom(
					'Storm reaches the coast today',
					'storm reaches the COAST today!',
					'Elections tomorrow everywhere in the land',
					'Short',
					''
				),
				excerpt: fc.constantFrom(STORM_TEXT, STORM_TEXT.toUpperCase(), 'Too short', undefined),
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

	it('keeps the first copy of each article id, whatever the ids (negative, huge, in steps of 2^k)', () => {
		const id = fc.oneof(
			fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
			fc.integer({ min: 0, max: 40 }).map((k) => k * 1024),
			fc.integer({ min: 0, max: 40 }).map((k) => k * 2 ** 20),
			fc.integer({ min: 2 ** 31, max: 2 ** 40 })
		);
		fc.assert(
			fc.property(fc.array(id, { maxLength: 60 }), (ids) => {
				// One feed, no link and a short title: nothing groups, so what is shown is the dedup.
				const rows = ids.map((n) => row(n, 1, '', 'Short'));
				const expected = [...new Set(ids)];
				expect(groupDuplicates(rows).shown.map((r) => r.id)).toEqual(expected);
			})
		);
	});

	it('never groups one feed’s articles', () => {
		fc.assert(
			fc.property(arbRows, (rows) => {
				const oneFeed = rows.map((r) => ({ ...r, feedId: 1 }));
				expect(groupDuplicates(oneFeed).copies.size).toBe(0);
			})
		);
	});

	it('groups two rows only on a shared article address or a distinctive title and content', () => {
		fc.assert(
			fc.property(arbRows, (rows) => {
				const byId = new Map(rows.map((r) => [r.id, r]));
				for (const [head, list] of groupDuplicates(rows).copies) {
					const members = [byId.get(head)!, ...list];
					// Every member shares its link or its title and content with another member.
					for (const m of members) {
						const linked = members.some(
							(o) => o !== m && linkKey(o.link) !== undefined && linkKey(o.link) === linkKey(m.link)
						);
						const titled = members.some(
							(o) =>
								o !== m &&
								titleKey(o.title) !== undefined &&
								titleKey(o.title) === titleKey(m.title) &&
								contentKey(o.excerpt) !== undefined &&
								contentKey(o.excerpt) === contentKey(m.excerpt)
						);
						expect(linked || titled).toBe(true);
					}
				}
			})
		);
	});

	it('reads each row a bounded number of times, however many share a title or a link', () => {
		// A pass over pairs (6.7 s for 20,000 rows of one title before) reads a row once per row it
		// shares a key with; the count of reads tells that apart from time on a busy machine.
		function readsFor(n: number): number {
			let reads = 0;
			const rows = Array.from({ length: n }, (_, i) => {
				const plain = row(
					i + 1,
					i % 50,
					`https://site${i % 40}.example/post/${i % 500}`,
					'',
					T0 + i,
					{
						excerpt: STORM_TEXT
					}
				);
				return new Proxy(plain, {
					get(target, key: string | symbol) {
						reads++;
						return key === 'title'
							? 'The same title for every row'
							: (Reflect.get(target, key) as unknown);
					}
				});
			});
			groupDuplicates(rows);
			return reads;
		}
		const small = readsFor(5_000);
		const large = readsFor(20_000);
		// Linear (with a sort by time): four times the rows, at most about five times the reads.
		expect(large / small).toBeLessThan(5);
	});

	it('remembers its last grouping: new row objects with the same grouped fields are not regrouped', () => {
		const memo = duplicatesMemo();
		const rows = [
			{ ...row(1, 10, 'https://a.example/story', 'One'), unread: true },
			{ ...row(2, 11, 'https://a.example/story?utm_source=x', 'Two'), unread: true },
			{ ...row(3, 11, 'https://a.example/other', 'Three'), unread: true }
		];
		const first = memo(rows);
		expect(memo.regrouped).toBe(1);
		const read = rows.map((r) => (r.id === 2 ? { ...r, unread: false } : r));
		const second = memo(read);
		expect(memo.regrouped).toBe(1);
		expect(second.shown.map((r) => r.id)).toEqual(first.shown.map((r) => r.id));
		expect(second.copies.get(1)).toEqual([read[1]]);
		expect(second.copies.get(1)?.[0]?.unread).toBe(false);
		// A grouped field changed, a row more or less: grouped anew.
		memo(read.map((r) => (r.id === 2 ? { ...r, link: 'https://a.example/two' } : r)));
		expect(memo.regrouped).toBe(2);
		expect(memo(read.slice(1)).copies.size).toBe(0);
		expect(memo.regrouped).toBe(3);
	});
});

describe('keys made without their strings', () => {
	it("a plain title's hash is its key's hash, and says when it has none", () => {
		fc.assert(
			fc.property(
				fc.oneof(
					fc.string({ unit: fc.constantFrom(...'aB3 .,-_!Zz0\t\n'.split('')), maxLength: 40 }),
					fc.string({ maxLength: 40 }),
					fc.string({ unit: 'grapheme', maxLength: 20 })
				),
				(title) => {
					const hash = titleHash(title);
					if (/[\u0080-\uffff]/.test(title)) {
						expect(hash).toBe(NOT_ASCII);
						return;
					}
					const key = titleKey(title);
					expect(hash).toBe(key === undefined ? NO_KEY : hashOf(key));
				}
			)
		);
	});

	it("an article's first words are those of the whole word list", () => {
		fc.assert(
			fc.property(
				fc.array(fc.constantFrom('tram', 'Line', 'a', '<b>', 'é', ' ', '&amp;', '12', '. '), {
					maxLength: 30
				}),
				(parts) => {
					const text = parts.join(' ');
					const first = words(text.replace(/<[^>]*>/g, ' ').replace(/&amp;/g, '&')).slice(
						0,
						CONTENT_WORDS
					);
					expect(contentKey(text)).toBe(
						first.length >= CONTENT_WORDS ? first.join(' ') : undefined
					);
				}
			)
		);
	});
});
