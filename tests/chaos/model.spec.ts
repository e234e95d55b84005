import { describe, expect, it } from 'vitest';
import {
	checkCache,
	checkNotes,
	checkShares,
	checkScreen,
	checkServer,
	checkWire,
	checkAccounts,
	labelField,
	ReaderModel,
	rng,
	sameStoryGroups,
	type ArticleState,
	type RuleModel
} from './model';

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

	it('a tap whose outcome never showed allows either state, until a later intent on the field', () => {
		const model = new ReaderModel();
		model.recordUnseen(0, 1, 'unread', false);
		model.recordUnseen(0, 2, 'unread', false);
		model.record(1, 2, 'unread', true);
		const initial = new Map([
			[1, state(true)],
			[2, state(true)]
		]);
		// The app never acted on the tap of article 1, nor on 2's: 1 passes, 2's later intent holds.
		expect(checkServer(model, initial, initial, new Set())).toEqual([]);
		const acted = new Map([
			[1, state(false)],
			[2, state(false)]
		]);
		expect(checkServer(model, initial, acted, new Set())).toEqual([
			{ kind: 'lost', detail: 'article 2 unread: reader last asked true, server has false' }
		]);
	});

	it('names a change the server lost, one nobody asked for, and lets failed ones pass', () => {
		const model = new ReaderModel();
		model.saw([1, 2, 3, 4]);
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

	it('labels are absolute per article: the last one asked wins, one nobody asked is spurious', () => {
		const model = new ReaderModel();
		model.saw([1, 2, 3]);
		model.record(0, 1, labelField(-1026), true);
		model.record(1, 2, labelField(-1027), true);
		model.record(2, 2, labelField(-1027), false);
		const initial = new Map([
			[1, { ...state(true), labels: [] }],
			[2, { ...state(true), labels: [-1027] }],
			[3, { ...state(true), labels: [] }]
		]);
		expect(
			checkServer(
				model,
				initial,
				new Map([
					[1, { ...state(true), labels: [-1026] }],
					[2, { ...state(true), labels: [] }],
					[3, { ...state(true), labels: [] }]
				]),
				new Set()
			)
		).toEqual([]);
		expect(
			checkServer(
				model,
				initial,
				new Map([
					[1, { ...state(true), labels: [] }],
					[2, { ...state(true), labels: [-1027] }],
					[3, { ...state(true), labels: [-1026] }]
				]),
				new Set()
			)
		).toEqual([
			{ kind: 'lost', detail: 'article 1 label:-1026: reader last asked true, server has false' },
			{ kind: 'lost', detail: 'article 2 label:-1027: reader last asked false, server has true' },
			{
				kind: 'spurious',
				detail: 'article 3 label:-1026: was false, nobody asked, server has true'
			}
		]);
	});

	it('a mark above wider than the rows the reader saw is widened, on the server and on the wire', () => {
		const model = new ReaderModel();
		model.saw([1, 2, 3, 4, 5]);
		// Article 3 opened (read), then marked unread; then "Mark above read" from row 3 saw 1 and 2.
		model.record(0, 3, 'unread', false);
		model.record(1, 3, 'unread', true);
		model.catchup(2, [1, 2]);
		const initial = new Map([1, 2, 3, 4].map((id) => [id, state(true)]));
		const right = new Map([
			[1, state(false)],
			[2, state(false)],
			[3, state(true)],
			[4, state(true)]
		]);
		expect(checkServer(model, initial, right, new Set())).toEqual([]);
		// The sabotaged app: its mark above took the row itself (3) and the one below (4) as well.
		const wide = new Map([
			[1, state(false)],
			[2, state(false)],
			[3, state(false)],
			[4, state(false)]
		]);
		expect(checkServer(model, initial, wide, new Set()).map((a) => a.kind)).toEqual([
			'widened',
			'widened'
		]);
		expect(checkServer(model, initial, wide, new Set())[0]?.detail).toContain(
			'catch-up op 2 did not cover it'
		);
		// On the wire: an article already read on the server, named anyway, is still too wide.
		const sent = (ids: string) => ({
			op: 'updateArticle',
			params: { article_ids: ids, field: 2, mode: 0 },
			forwarded: true
		});
		expect(checkWire(model, [sent('1,2')])).toEqual([]);
		expect(checkWire(model, [sent('1,2,5'), sent('5')])).toEqual([
			{
				kind: 'widened',
				detail: 'updateArticle marked article 5 read; the reader asked no such thing'
			}
		]);
		// Not forwarded, or marking unread: nothing reached tt-rss as a read.
		expect(
			checkWire(model, [
				{ ...sent('5'), forwarded: false },
				{ ...sent('5'), params: { article_ids: '5', field: 2, mode: 1 } }
			])
		).toEqual([]);
	});

	it("read set on a story's row may reach a copy of the same story that the row named, and may not", () => {
		const model = new ReaderModel();
		// 18 and 19: one article in two feeds; the list showed 15 and 18, and 18 said "also in" 19.
		model.setCopies([[18, 19]]);
		model.saw([15, 18, 20]);
		model.sawCopies(18, [19]);
		model.catchup(0, [15, 18]);
		const initial = new Map([15, 18, 19, 20].map((id) => [id, state(true)]));
		const read = (...ids: number[]) =>
			new Map([...initial].map(([id, s]) => [id, ids.includes(id) ? state(false) : s]));
		// The copy read with its row, or left (grouping not loaded yet): both are what the reader saw.
		expect(checkServer(model, initial, read(15, 18, 19), new Set())).toEqual([]);
		expect(checkServer(model, initial, read(15, 18), new Set())).toEqual([]);
		// An article of no group, shown on screen, is still widened.
		expect(checkServer(model, initial, read(15, 18, 20), new Set()).map((a) => a.kind)).toEqual([
			'widened'
		]);
	});

	it('changed an article the reader never saw: unseen-change, on the server, on the wire and in the cache', () => {
		const model = new ReaderModel();
		model.saw([1, 2]);
		model.record(0, 1, 'unread', false);
		const initial = new Map([1, 2, 3].map((id) => [id, state(true)]));
		const final = new Map([
			[1, state(false)],
			[2, state(true, true)],
			[3, state(true, true)]
		]);
		// 2 was on screen (spurious, as before); 3 never was.
		expect(checkServer(model, initial, final, new Set())).toEqual([
			{ kind: 'spurious', detail: 'article 2 marked: was false, nobody asked, server has true' },
			{
				kind: 'unseen-change',
				detail:
					'article 3 marked: was false, nobody asked, the reader never saw it, server has true'
			}
		]);
		const sent = {
			op: 'updateArticle',
			params: { article_ids: '1,2,3', field: 2, mode: 0 },
			forwarded: true
		};
		expect(checkWire(model, [sent]).map((a) => a.kind)).toEqual(['widened', 'unseen-change']);
		// A server-side actor (another device) may change it: nothing to report.
		model.elsewhere(1, 3, 'marked', true);
		model.saw([2]);
		model.record(2, 2, 'marked', true);
		expect(checkServer(model, initial, final, new Set())).toEqual([]);
	});

	describe("issue 55's defects, as traces the checker must flag", () => {
		// The review's trace (recorded replies of cd7e7e8): two feeds' "Daily digest" posts, links
		// apart; "same story shown once" showed only 21, and reading it sent article_ids '21,28'.
		const digests = [
			{ id: 21, feedId: 3, link: 'http://feeds.test/japanese/2026-12-01' },
			{ id: 28, feedId: 4, link: 'http://feeds.test/episodes/2026-12-01' }
		];
		const initial = new Map([21, 28].map((id) => [id, state(true)]));
		const bothRead = new Map([21, 28].map((id) => [id, state(false)]));
		const readWire = (ids: string) => ({
			op: 'updateArticle',
			params: { article_ids: ids, field: 2, mode: 0 },
			forwarded: true
		});

		it('1: grouping marks a hidden copy of another story read (the review: 21,28)', () => {
			const model = new ReaderModel();
			model.setCopies(sameStoryGroups(digests));
			model.saw([21]);
			// The row even said "also in" 28: by the harness's standard it is another story.
			model.sawCopies(21, [28]);
			model.record(0, 21, 'unread', false);
			expect(checkServer(model, initial, bothRead, new Set()).map((a) => a.kind)).toEqual([
				'unseen-change'
			]);
			expect(checkWire(model, [readWire('21,28')]).map((a) => a.kind)).toEqual(['unseen-change']);
			// Clean: only 21 read.
			const clean = new Map([
				[21, state(false)],
				[28, state(true)]
			]);
			expect(checkServer(model, initial, clean, new Set())).toEqual([]);
			expect(checkWire(model, [readWire('21')])).toEqual([]);
		});

		it('1: a true copy (one address in two feeds) follows only when its row named it', () => {
			const same = digests.map((d) => ({ ...d, link: 'http://news.test/story/42' }));
			const told = new ReaderModel();
			told.setCopies(sameStoryGroups(same));
			told.saw([21]);
			told.sawCopies(21, [28]);
			told.record(0, 21, 'unread', false);
			expect(checkServer(told, initial, bothRead, new Set())).toEqual([]);
			expect(checkWire(told, [readWire('21,28')])).toEqual([]);
			// The same story, hidden without a word on the row: the reader never saw it go.
			const silent = new ReaderModel();
			silent.setCopies(sameStoryGroups(same));
			silent.saw([21]);
			silent.record(0, 21, 'unread', false);
			expect(checkServer(silent, initial, bothRead, new Set()).map((a) => a.kind)).toEqual([
				'unseen-change'
			]);
		});

		it("the harness's standard of the same story: one article's address in two feeds, nothing weaker", () => {
			expect(
				sameStoryGroups([
					{ id: 1, feedId: 1, link: 'https://news.test/a/1' },
					{ id: 2, feedId: 2, link: 'https://NEWS.test/a/1/' },
					// A site's root, and one page's #fragments: no article of their own.
					{ id: 3, feedId: 1, link: 'https://site.test/' },
					{ id: 4, feedId: 2, link: 'https://site.test' },
					{ id: 5, feedId: 1, link: 'https://hn.test/item#c1' },
					{ id: 6, feedId: 2, link: 'https://hn.test/item#c2' },
					// One address twice in one feed (and once elsewhere): says nothing.
					{ id: 7, feedId: 1, link: 'https://blog.test/home' },
					{ id: 8, feedId: 1, link: 'https://blog.test/home' },
					{ id: 9, feedId: 2, link: 'https://blog.test/home' }
				])
			).toEqual([[1, 2]]);
		});

		const star: RuleModel = { id: 'r1', field: 'marked', value: true, matches: () => true };
		const read: RuleModel = { id: 'r2', field: 'unread', value: false, matches: () => true };

		it('3: a rule that skips an article arriving after newer ones (a high-water mark) is lost', () => {
			const model = new ReaderModel();
			model.arrived(0, [1]);
			model.ruleMade(1, 'r1');
			// A burst: the sync kept the newest (5), a later one brought the older (4).
			model.arrived(2, [5]);
			model.rulesRan(2, [star]);
			model.arrived(3, [4]);
			model.rulesRan(3, [star]);
			const initial = new Map([1, 4, 5].map((id) => [id, state(true)]));
			const skipped = new Map([
				[1, state(true)],
				[4, state(true)],
				[5, state(true, true)]
			]);
			expect(checkServer(model, initial, skipped, new Set())).toEqual([
				{ kind: 'lost', detail: 'article 4 marked: rule:r1 last asked true, server has false' }
			]);
			// Clean: both that arrived after the rule starred, the one before left alone.
			const acted = new Map([
				[1, state(true)],
				[4, state(true, true)],
				[5, state(true, true)]
			]);
			expect(checkServer(model, initial, acted, new Set())).toEqual([]);
			// And one the rule acted on before it was made: nobody asked (1 was never on screen).
			const early = new Map([...acted, [1, state(true, true)]]);
			expect(checkServer(model, initial, early, new Set()).map((a) => a.kind)).toEqual([
				'unseen-change'
			]);
		});

		it("4: a rule that acts on the reader's own change since the article arrived is lost", () => {
			const model = new ReaderModel();
			model.ruleMade(0, 'r2');
			// The open list brought 7 in; the reader opened it and kept it unread; then a sync.
			model.arrived(1, [7]);
			model.saw([7]);
			model.record(2, 7, 'unread', false);
			model.record(3, 7, 'unread', true);
			model.arrived(4, [8]);
			model.rulesRan(4, [read]);
			const initial = new Map([7, 8].map((id) => [id, state(true)]));
			const overridden = new Map([
				[7, state(false)],
				[8, state(false)]
			]);
			expect(checkServer(model, initial, overridden, new Set())).toEqual([
				{ kind: 'lost', detail: 'article 7 unread: reader last asked true, server has false' }
			]);
			expect(checkWire(model, [readWire('7,8')]).map((a) => a.kind)).toEqual([]);
			const kept = new Map([
				[7, state(true)],
				[8, state(false)]
			]);
			expect(checkServer(model, initial, kept, new Set())).toEqual([]);
		});

		it('4: a rule may act or not where the reader changed another field, or before it arrived', () => {
			const model = new ReaderModel();
			model.ruleMade(0, 'r1');
			model.saw([7, 8]);
			model.record(1, 8, 'marked', false);
			model.arrived(2, [7, 8]);
			model.record(3, 7, 'unread', false);
			model.rulesRan(4, [star]);
			const initial = new Map([7, 8].map((id) => [id, state(true)]));
			for (const marked of [true, false]) {
				const final = new Map([
					[7, state(false, marked)],
					[8, state(true, marked)]
				]);
				expect(checkServer(model, initial, final, new Set())).toEqual([]);
			}
		});

		it('5: a cache that marks a still-unread article read (a page set that shifted) is flagged', () => {
			const model = new ReaderModel();
			model.saw([100]);
			// Another device read 400 while the sync paged; 250 stayed unread throughout.
			model.elsewhere(0, 400, 'unread', false);
			const ids = [100, 250, 400];
			const initial = new Map(ids.map((id) => [id, state(true)]));
			const final = new Map([
				[100, state(true)],
				[250, state(true)],
				[400, state(false)]
			]);
			const cache = (unread250: boolean, unread100 = true) => [
				{ id: 100, unread: unread100, marked: false, published: false },
				{ id: 250, unread: unread250, marked: false, published: false },
				// Still unread on the device: a copy that lags, not one the device made up.
				{ id: 400, unread: true, marked: false, published: false }
			];
			expect(checkCache(model, initial, final, cache(false))).toEqual([
				{
					kind: 'unseen-change',
					detail:
						'cached article 250 unread: false on the device, true on the server, nobody asked, the reader never saw it'
				}
			]);
			// Seen and never asked: widened.
			expect(checkCache(model, initial, final, cache(true, false)).map((a) => a.kind)).toEqual([
				'widened'
			]);
			expect(checkCache(model, initial, final, cache(true))).toEqual([]);
		});
	});

	it("an account's writes with another's session, or its login after signing out, are misdirected", () => {
		const req = (op: string, account?: string) => ({
			op,
			params: {},
			forwarded: true,
			...(account ? { account } : {})
		});
		const history = [
			req('login', 'a'), // 0: the reader's own sign-in
			req('updateArticle', 'a'),
			req('logout', 'a'), // 2: signing out
			req('login', 'b'), // 3: the signed-out span starts here
			req('getFeedTree', 'b'),
			req('login', 'a'), // 5: a replay signing a back in
			req('updateArticle', 'b'), // 6: a's change with b's session
			req('login', 'a') // 7: the reader's own sign-in again
		];
		expect(checkAccounts(history, 'a', 'b', [{ signedOut: 3, back: 7 }])).toEqual([
			{ kind: 'misdirected', detail: 'a logged in again after signing out (request 5)' },
			{ kind: 'misdirected', detail: "updateArticle {} sent with b's session (request 6)" }
		]);
		// Without the stray login and write, and outside the span: nothing.
		const clean = history.filter((_, i) => i !== 5 && i !== 6);
		expect(checkAccounts(clean, 'a', 'b', [{ signedOut: 3, back: 5 }])).toEqual([]);
		expect(checkAccounts(history.slice(0, 2), 'a', 'b', [])).toEqual([]);
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

	it('notes: the last one saved is on the server; an unsaved note never changes; a failed one is told', () => {
		const model = new ReaderModel();
		model.recordNote(0, 1, 'first');
		model.recordNote(3, 1, 'second');
		model.recordNote(4, 3, 'told');
		const initial = new Map([
			[1, { ...state(true), note: '' }],
			[2, { ...state(true), note: 'kept' }],
			[3, { ...state(true), note: '' }]
		]);
		const good = new Map([
			[1, { ...state(true), note: 'second' }],
			[2, { ...state(true), note: 'kept' }],
			[3, { ...state(true), note: '' }]
		]);
		expect(checkNotes(model, initial, good, new Set([3]))).toEqual([]);
		const bad = new Map([
			[1, { ...state(true), note: 'first' }],
			[2, { ...state(true), note: '' }],
			[3, { ...state(true), note: '' }]
		]);
		expect(checkNotes(model, initial, bad, new Set()).map((a) => a.kind)).toEqual([
			'lost',
			'spurious',
			'lost'
		]);
	});

	it('shares: once on the server, never twice; a failed or unanswered one may be missing', () => {
		const model = new ReaderModel();
		model.recordShare(0, 'kept', true);
		model.recordShare(1, 'unanswered', false);
		model.recordShare(2, 'told', true);
		expect(checkShares(model, new Map([['kept', 1]]), new Set(['told']))).toEqual([]);
		expect(
			checkShares(
				model,
				new Map([
					['unanswered', 2],
					['told', 1]
				]),
				new Set(['told'])
			).map((a) => a.kind)
		).toEqual(['lost', 'doubled']);
	});

	it('an operation whose outcome never showed clearly allows either state for each of its intents', () => {
		const model = new ReaderModel();
		model.record(0, 1, 'marked', true);
		model.record(0, 2, 'marked', true);
		model.markUnseen(0);
		const initial = new Map([
			[1, state(true)],
			[2, state(true)]
		]);
		const final = new Map([
			[1, state(true, true)],
			[2, state(true, false)]
		]);
		expect(checkServer(model, initial, final, new Set())).toEqual([]);
	});
});
