import { describe, expect, it } from 'vitest';
import { chooseForMissing, planImport } from './plan';

const categories = [
	{ id: 1, title: 'Tech' },
	{ id: 2, title: 'Web' },
	{ id: 3, title: 'World' },
	{ id: -1, title: 'Special' }
];

describe('planImport', () => {
	const plan = planImport(
		[
			{ title: 'A', xmlUrl: 'http://a.test/feed', categoryPath: ['Tech', 'web '] },
			{ title: 'B', xmlUrl: 'http://b.test/feed', categoryPath: ['Science'] },
			{ title: 'C', xmlUrl: 'HTTP://C.test/feed', categoryPath: [] },
			{ title: 'D', xmlUrl: 'http://d.test/feed', categoryPath: ['Special'] },
			{ title: 'E', xmlUrl: 'http://e.test/feed', categoryPath: ['Science'] }
		],
		categories,
		['http://c.test/feed']
	);

	it('matches the innermost category by name, loosely', () => {
		expect(plan.feeds[0]).toMatchObject({ categoryId: 2, missing: false, wanted: 'web ' });
	});

	it('names the missing categories once and files their feeds under Uncategorized', () => {
		expect(plan.missing).toEqual(['Science', 'Special']);
		expect(plan.feeds[1]).toMatchObject({ categoryId: 0, missing: true });
		expect(plan.feeds[3]).toMatchObject({ categoryId: 0, missing: true });
	});

	it('marks feeds already subscribed, whatever the address spelling', () => {
		expect(plan.feeds.map((f) => f.alreadySubscribed)).toEqual([false, false, true, false, false]);
	});

	it('puts missing categories where the reader chose', () => {
		const chosen = chooseForMissing(plan, new Map([['Science', 3]]));
		expect(chosen.map((f) => f.categoryId)).toEqual([2, 3, 0, 0, 3]);
	});
});
