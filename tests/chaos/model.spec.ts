import { describe, expect, it } from 'vitest';
import {
	checkNotes,
	checkShares,
	checkScreen,
	checkServer,
	checkWire,
	checkAccounts,
	labelField,
	ReaderModel,
	rng,
	type ArticleState
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

	it("read set on a story's row may reach its copies (the list's grouping), and may not", () => {
		const model = new ReaderModel();
		model.setCopies([[18, 19]]);
		model.catchup(0, [15, 18]);
		const initial = new Map([15, 18, 19, 20].map((id) => [id, state(true)]));
		const read = (...ids: number[]) =>
			new Map([...initial].map(([id, s]) => [id, ids.includes(id) ? state(false) : s]));
		// The copy read with its row, or left (grouping not loaded yet): both are what the reader saw.
		expect(checkServer(model, initial, read(15, 18, 19), new Set())).toEqual([]);
		expect(checkServer(model, initial, read(15, 18), new Set())).toEqual([]);
		// An article of no group is still widened.
		expect(checkServer(model, initial, read(15, 18, 20), new Set()).map((a) => a.kind)).toEqual([
			'widened'
		]);
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
