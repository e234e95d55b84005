/**
 * The rule two devices' changes of one shared item settle by (issue 60): per item, the later
 * change wins and keeps what it replaced; merging is commutative, associative and idempotent, so
 * the order in which devices' changes reach the server does not matter. The plugin's PHP rule
 * (package/shared-settings.php) settles the same pairs alike.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SharedItem } from '$lib/api/shared-settings-op';
import { hasPhp, ROOT } from '$lib/pwa/testing/plugin-php';
import { mergeItem, mergeItems } from './shared-merge';

// Few values and times, so that ties and equal values happen often.
const record = fc.record({
	value: fc.constantFrom(
		'"star"',
		'"read"',
		'["a","Jürgen"]',
		'[]',
		'18',
		'"\u{1F600}"',
		'"\uFFFD"'
	),
	mtime: fc.integer({ min: 1, max: 6 })
});
/** An item as a device or the server can hold one: made by merging changes. */
const item = fc
	.array(record, { minLength: 1, maxLength: 4 })
	.map((records) =>
		records.reduce<SharedItem | undefined>((acc, r) => mergeItem(acc, r), undefined)
	) as fc.Arbitrary<SharedItem>;

describe('mergeItem', () => {
	it('the later change wins; the earlier differing one is what it replaced', () => {
		const phone = { value: '"star"', mtime: 2 };
		const desktop = { value: '"read"', mtime: 3 };
		expect(mergeItem(phone, desktop)).toEqual({ ...desktop, replaced: phone });
		expect(mergeItem({ value: '"read"', mtime: 1 }, desktop)).toEqual(desktop);
	});

	it('is commutative, associative and idempotent', () => {
		fc.assert(
			fc.property(item, item, item, (a, b, c) => {
				expect(mergeItem(a, b)).toEqual(mergeItem(b, a));
				expect(mergeItem(mergeItem(a, b), c)).toEqual(mergeItem(a, mergeItem(b, c)));
				expect(mergeItem(a, a)).toEqual(a);
				expect(mergeItem(mergeItem(a, b), b)).toEqual(mergeItem(a, b));
			}),
			{ numRuns: 500 }
		);
	});

	it('keeps the latest change seen, whatever the order it arrives in', () => {
		fc.assert(
			fc.property(fc.array(record, { minLength: 1, maxLength: 6 }), (records) => {
				const merged = records.reduce<SharedItem | undefined>(mergeItem, undefined);
				const latest = Math.max(...records.map((r) => r.mtime));
				expect(merged?.mtime).toBe(latest);
				const reversed = [...records]
					.reverse()
					.reduce<SharedItem | undefined>(mergeItem, undefined);
				expect(reversed).toEqual(merged);
			})
		);
	});

	it('mergeItems merges per key and keeps the keys of both', () => {
		const a = {
			'mute.words': { value: '["a"]', mtime: 5 },
			'swipe.left': { value: '"star"', mtime: 1 }
		};
		const b = { 'swipe.left': { value: '"read"', mtime: 2 } };
		expect(mergeItems(a, b)).toEqual({
			'mute.words': a['mute.words'],
			'swipe.left': { value: '"read"', mtime: 2, replaced: { value: '"star"', mtime: 1 } }
		});
	});

	it.skipIf(!hasPhp)('settles every pair as the plugin’s PHP does', () => {
		const pairs = fc.sample(fc.tuple(fc.option(item, { nil: null }), item), 400);
		const php = JSON.parse(
			execFileSync(
				'php',
				[
					join(import.meta.dirname, '../pwa/plugin-shared-merge.php'),
					join(ROOT, 'package/shared-settings.php')
				],
				{
					input: JSON.stringify(pairs),
					encoding: 'utf8'
				}
			)
		) as unknown[];
		expect(php).toEqual(pairs.map(([a, b]) => mergeItem(a ?? undefined, b)));
	});
});
