import { describe, expect, it } from 'vitest';
import { deriveCapabilities } from '$lib/api';
import { parseCounters } from '$lib/api/parse';
import { levelOf, recordedContent, recordedLevels } from '$support/fake-fetch';
import { headline } from '$support/factories';
import { counterMoves, packCounterOf, sameSnapshot, snapshotOf } from './counters';

type Row = Record<string, unknown>;
const feedRow = (rows: Row[], id: number): Row => {
	const row = rows.find((r) => r.id === id && r.kind === undefined);
	if (!row) throw new Error(`no feed ${id} in the recording`);
	return row;
};

describe.each(recordedLevels)('counter snapshots (recorded getCounters, %s)', (level) => {
	const caps = deriveCapabilities(levelOf(level));
	const recorded = (): Row[] => recordedContent(level, 'getCounters') as Row[];
	const snap = (rows: Row[]) => snapshotOf(parseCounters(rows, caps));

	it('ignore what moves without any article changing: update times, icon stamps, Fresh', () => {
		const rows = recorded();
		const moved = recorded();
		feedRow(moved, 1).updated = '18:42';
		// The icon's time stamp: `has_img` on level 15, `ts` on level 23.
		if ('has_img' in feedRow(moved, 1)) feedRow(moved, 1).has_img = 1795369999;
		if ('ts' in feedRow(moved, 1)) feedRow(moved, 1).ts = 1795369999;
		const fresh = moved.find((r) => r.id === -3);
		if (fresh) fresh.counter = 0;
		expect(sameSnapshot(snap(rows), snap(moved))).toBe(true);
	});

	it('see an article read, starred or published elsewhere', () => {
		const before = snap(recorded());
		const read = recorded();
		feedRow(read, 1).counter = Number(feedRow(read, 1).counter) - 1;
		expect(sameSnapshot(before, snap(read))).toBe(false);
		expect(counterMoves(before, snap(read), [])).toMatchObject({ unread: true, starred: false });

		const starred = recorded();
		feedRow(starred, 2).markedcounter = Number(feedRow(starred, 2).markedcounter) + 1;
		expect(counterMoves(before, snap(starred), [])).toEqual({
			unread: false,
			starred: true,
			published: false
		});
	});

	it('explain unread counters that moved by the new articles alone', () => {
		const before = snap(recorded());
		const now = recorded();
		feedRow(now, 1).counter = Number(feedRow(now, 1).counter) + 2;
		const global = now.find((r) => r.id === 'global-unread');
		if (global) global.counter = Number(global.counter) + 2;
		const fresh = [headline(900, { feedId: 1 }), headline(901, { feedId: 1 })];
		expect(counterMoves(before, snap(now), fresh).unread).toBe(false);
		// One of them was read elsewhere already: the counters no longer add up.
		expect(counterMoves(before, snap(now), [...fresh, headline(902, { feedId: 1 })]).unread).toBe(
			true
		);
	});

	it("names a pack's place by its own counters", () => {
		const counters = parseCounters(recorded(), caps);
		const moved = recorded();
		feedRow(moved, 2).counter = 0;
		expect(packCounterOf(counters, { kind: 'feed', feedId: 1 })).toBe(
			packCounterOf(parseCounters(moved, caps), { kind: 'feed', feedId: 1 })
		);
		expect(packCounterOf(counters, { kind: 'feed', feedId: 2 })).not.toBe(
			packCounterOf(parseCounters(moved, caps), { kind: 'feed', feedId: 2 })
		);
	});
});
