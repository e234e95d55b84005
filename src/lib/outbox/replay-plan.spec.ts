/** The replay's pure plan (replay-plan.ts): which requests queued items make, in what order. */
import { describe, expect, it } from 'vitest';
import { ArticleField, UpdateMode, type Headline } from '$lib/api';
import type { OutboxItem } from '$lib/db/schema';
import type { Intent } from './intent';
import { mayOvertake } from './order';
import { existedThen, MAX_IDS_PER_CALL, planCalls, retryAt, type PlannedCall } from './replay-plan';

const NOW = 1_000_000;
let seq = 0;

function item(intent: Intent, patch: Partial<OutboxItem> = {}): OutboxItem {
	seq++;
	return { seq, key: `k${seq}`, intent, createdAt: 1, attempts: 0, ...patch };
}
const read = (id: number, value = false): Intent => ({
	type: 'flag',
	field: 'unread',
	articleIds: [id],
	value
});
const star = (id: number): Intent => ({
	type: 'flag',
	field: 'starred',
	articleIds: [id],
	value: true
});
const catchup = (feedId: number): Extract<Intent, { type: 'catchup' }> => ({
	type: 'catchup',
	feedId,
	isCat: false,
	mode: 'all',
	at: 1
});

/** A call as its op and the ids (or catch-up feed) it carries. */
function shape(call: PlannedCall): string {
	switch (call.op) {
		case 'updateArticle':
			return `update ${call.params.field}=${call.params.mode} [${call.params.articleIds.join(',')}]`;
		case 'setArticleLabel':
			return `label ${call.params.labelId}=${call.params.assign} [${call.params.articleIds.join(',')}]`;
		case 'catchupFeed':
			return `catchup ${call.intent.feedId}`;
		case 'shareToPublished':
			return `share ${call.intent.url}`;
		case 'sharedSettings':
			return `settings ${Object.keys(call.put).join(',')}`;
	}
}

describe('planCalls', () => {
	it('joins the same change of many articles into one call, a different value or field into its own', () => {
		const calls = planCalls(
			[item(read(1)), item(read(2)), item(read(3, true)), item(star(4)), item(read(5))],
			NOW
		);
		expect(calls.map(shape)).toEqual([
			`update ${ArticleField.Unread}=${UpdateMode.False} [1,2,5]`,
			`update ${ArticleField.Unread}=${UpdateMode.True} [3]`,
			`update ${ArticleField.Starred}=${UpdateMode.True} [4]`
		]);
	});

	it('sends the settings kept on the server in one call, each with its own time (issue 60)', () => {
		const swipe = item({ type: 'setting', key: 'swipe.left', value: '"star"', mtime: 5 });
		const words = item({ type: 'setting', key: 'mute.words', value: '["x"]', mtime: 6 });
		const calls = planCalls([swipe, item(read(1)), words], NOW);
		expect(calls.map(shape)).toEqual([
			`settings swipe.left,mute.words`,
			`update ${ArticleField.Unread}=${UpdateMode.False} [1]`
		]);
		const settings = calls[0];
		expect(settings?.op === 'sharedSettings' && settings.put).toEqual({
			'swipe.left': { value: '"star"', mtime: 5 },
			'mute.words': { value: '["x"]', mtime: 6 }
		});
	});

	it('splits a large change into calls of at most MAX_IDS_PER_CALL ids', () => {
		const items = Array.from({ length: MAX_IDS_PER_CALL + 3 }, (_, i) => item(read(i + 1)));
		const calls = planCalls(items, NOW);
		expect(calls.map((c) => c.items.length)).toEqual([MAX_IDS_PER_CALL, 3]);
	});

	it('keeps a catch-up a barrier: nothing moves across it, in the order queued (seq), not as given', () => {
		const before = item(read(1));
		const barrier = item(catchup(5));
		const after = item(read(2));
		const calls = planCalls([after, barrier, before], NOW);
		expect(calls.map(shape)).toEqual([
			`update ${ArticleField.Unread}=${UpdateMode.False} [1]`,
			'catchup 5',
			`update ${ArticleField.Unread}=${UpdateMode.False} [2]`
		]);
	});

	it('a change put off before a catch-up stops the plan there: it must reach the server first', () => {
		const calls = planCalls(
			[item(read(1), { notBefore: NOW + 1 }), item(read(2)), item(catchup(5)), item(read(3))],
			NOW
		);
		expect(calls.map(shape)).toEqual([`update ${ArticleField.Unread}=${UpdateMode.False} [2]`]);
		// Its time come, everything goes.
		expect(
			planCalls([item(read(1), { notBefore: NOW }), item(catchup(5))], NOW).map(shape)
		).toEqual([`update ${ArticleField.Unread}=${UpdateMode.False} [1]`, 'catchup 5']);
	});

	it('a held catch-up holds back only what it could reach', () => {
		const held = item(catchup(5), { heldUntil: NOW + 5_000, undoId: 'u' });
		const note = item({ type: 'note', articleId: 9, note: 'n' });
		const readChange = item(read(9));
		const calls = planCalls([held, note, readChange], NOW);
		expect(calls.map((c) => c.op)).toEqual(['updateArticle']);
		expect(calls[0]?.items).toEqual([note]);
		// Released (its hold over), it goes first and the rest after it.
		expect(planCalls([held, note, readChange], NOW + 5_000).map((c) => c.op)).toEqual([
			'catchupFeed',
			'updateArticle',
			'updateArticle'
		]);
	});
});

describe('mayOvertake', () => {
	it('lets a note or an unrelated star pass a feed catch-up, never a read change or another barrier', () => {
		const held = catchup(5);
		expect(mayOvertake({ type: 'note', articleId: 1, note: '' }, held)).toBe(true);
		expect(mayOvertake(star(1), held)).toBe(true);
		expect(mayOvertake(read(1), held)).toBe(false);
		expect(mayOvertake(catchup(6), held)).toBe(false);
		expect(mayOvertake(star(1), catchup(-1))).toBe(false); // Starred: a star changes its scope
	});
});

describe('existedThen', () => {
	const unread = (ids: number[]): Headline[] => ids.map((id) => ({ id }) as Headline);

	it('keeps what the reader could have seen: ids up to maxId, or the lowest unreadSeen ids', () => {
		const rows = unread([30, 10, 20, 40]);
		expect(existedThen({ ...catchup(5), maxId: 20 }, rows)).toEqual(new Set([10, 20]));
		expect(existedThen({ ...catchup(5), maxId: 10, unreadSeen: 3 }, rows)).toEqual(
			new Set([10, 20, 30])
		);
		expect(existedThen(catchup(5), rows)).toEqual(new Set([10, 20, 30, 40]));
	});
});

describe('retryAt', () => {
	it('waits 30 s after the first failure, twice as long after each next, at most an hour', () => {
		expect(retryAt(1, NOW) - NOW).toBe(30_000);
		expect(retryAt(2, NOW) - NOW).toBe(60_000);
		expect(retryAt(4, NOW) - NOW).toBe(240_000);
		expect(retryAt(20, NOW) - NOW).toBe(3_600_000);
	});
});
