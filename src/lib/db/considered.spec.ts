/** Which arriving articles a feature has considered (considered.ts): bounded, once, never skipped. */
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { headline } from '$support/factories';
import {
	claimArrivals,
	hasConsidered,
	parseConsidered,
	startConsidered,
	withConsidered,
	type Considered
} from './considered';
import { storedKeyFamily } from './kv';
import { openReaderDb } from './open';
import type { StoredArticle } from './schema';
import { ownCacheForTests } from '$support/own-cache';
import { TEST_ACCOUNT } from '$support/factories';

const KEY = storedKeyFamily<Considered | undefined>({
	store: 'sync',
	prefix: 'test-considered:',
	owner: 'considered.spec.ts',
	parse: parseConsidered,
	fallback: () => undefined
})(TEST_ACCOUNT);

const stored = (id: number): StoredArticle => ({
	...headline(id),
	comments: '',
	hasContent: false,
	storedAt: 1,
	offline: false
});

async function arrive(...ids: number[]): Promise<void> {
	const db = await openReaderDb();
	for (const id of ids) await db.put('articles', stored(id));
}

const claim = async (): Promise<number[]> =>
	(await claimArrivals(KEY, TEST_ACCOUNT)).map((a) => a.id);

beforeEach(async () => {
	await ownCacheForTests();
});

describe('the considered set', () => {
	it('reads the rules’ old high-water mark as its floor: what it covered stays covered', () => {
		expect(parseConsidered({ last: 42 })).toEqual({ floor: 42, ids: [] });
		expect(parseConsidered({ floor: 3, ids: [9, 2, 4, 4, 'x'] })).toEqual({
			floor: 3,
			ids: [4, 9]
		});
		expect(parseConsidered({ floor: -1, ids: [] })).toBeUndefined();
		expect(parseConsidered([])).toBeUndefined();
	});

	it('property: bounded, each id considered at most once, and only ids under the floor skipped', () => {
		fc.assert(
			fc.property(
				fc.uniqueArray(fc.integer({ min: 1, max: 60 }), { maxLength: 60 }),
				fc.integer({ min: 1, max: 10 }),
				(arrivals, max) => {
					let set: Considered = { floor: 0, ids: [] };
					const acted: number[] = [];
					for (const id of arrivals) {
						const fresh = !hasConsidered(set, id);
						if (fresh) acted.push(id);
						else expect(id).toBeLessThanOrEqual(set.floor);
						set = withConsidered(set, [id], max);
						expect(set.ids.length).toBeLessThanOrEqual(max);
						expect(hasConsidered(set, id)).toBe(true);
					}
					// Skipped only an id older than `max` newer ones considered before it arrived.
					for (const id of arrivals.filter((id) => !acted.includes(id))) {
						const before = arrivals.slice(0, arrivals.indexOf(id));
						expect(before.filter((b) => b > id).length).toBeGreaterThanOrEqual(max);
					}
				}
			)
		);
	});

	it('claims each cached article once, in whatever order they arrive', async () => {
		await arrive(10);
		await startConsidered(KEY);
		await arrive(30, 31);
		expect(await claim()).toEqual([30, 31]);
		// The older new ones come later (a burst bigger than the sync's count): not skipped.
		await arrive(20, 21);
		expect(await claim()).toEqual([20, 21]);
		expect(await claim()).toEqual([]);
		// What was already here when it started is not news, whenever it shows up.
		await arrive(5);
		expect(await claim()).toEqual([]);
	});

	it('two claims at once (page and worker) share the articles out: each goes to one', async () => {
		await arrive(1);
		await startConsidered(KEY);
		await arrive(2, 3, 4);
		const [a, b] = await Promise.all([claim(), claim()]);
		expect([...a, ...b].sort()).toEqual([2, 3, 4]);
	});

	it('started with nothing stored, it starts after what the first sync brings', async () => {
		await startConsidered(KEY);
		await arrive(1, 2, 3);
		expect(await claim()).toEqual([]);
		await arrive(4);
		expect(await claim()).toEqual([4]);
	});

	it('claims nothing from a cache that is not the account’s', async () => {
		await arrive(1);
		await startConsidered(KEY);
		await arrive(2);
		await ownCacheForTests('other@http://tt.example/api/');
		expect(await claim()).toEqual([]);
	});
});
