/**
 * What a tap reads of the stored tree (issue 28): on a big account the tree's record (a thousand
 * feeds and their counters) is the costliest read of a tap, and a flag or a note needs nothing of
 * it. The overlay of queued changes on a server answer and the names of the pending changes read
 * it only for a label or a catch-up (apply.ts `needsTree`); the offline status reads it only when
 * asked, not at each change of the outbox.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseCounters, parseFeedTree } from '$lib/api/parse';
import { recordedContent } from '$support/fake-fetch';
import { treeFromNodes } from '$lib/api/tree';
import { openReaderDb } from '$lib/db/open';
import { ownCacheForTests } from '$support/own-cache';
import type { Intent } from './intent';
import { enqueueIntent } from './enqueue';
import { intentNames, withQueuedChanges } from './outbox';
import { headline } from '$support/factories';

const tree = treeFromNodes(parseFeedTree(recordedContent('api15', 'getFeedTree')));
const label = tree.labels[0];

/** Counts the reads of the `tree` store's record from now on. */
function countTreeReads(): () => number {
	const get = vi.spyOn(IDBObjectStore.prototype, 'get');
	return () =>
		get.mock.contexts.filter((store) => (store as IDBObjectStore).name === 'tree').length;
}

beforeEach(async () => {
	await ownCacheForTests();
	const db = await openReaderDb();
	await db.put(
		'tree',
		{
			tree,
			counters: parseCounters(recordedContent('api15', 'getCounters')),
			fetchedAt: 1
		},
		'current'
	);
});

afterEach(() => {
	vi.restoreAllMocks();
});

const star: Intent = { type: 'flag', field: 'starred', articleIds: [1], value: true };
const note: Intent = { type: 'note', articleId: 1, note: 'later' };

describe('reads of the stored tree', () => {
	it('a starred or noted article over a server answer, and its name, read no tree', async () => {
		expect(label).toBeDefined();
		await enqueueIntent(star);
		await enqueueIntent(note);
		const treeReads = countTreeReads();
		const [row] = await withQueuedChanges([headline(1, { marked: false })]);
		expect(row?.marked).toBe(true);
		expect(row?.note).toBe('later');
		await intentNames([star, note]);
		expect(treeReads()).toBe(0);
	});

	it('a label reads the tree for its caption, on the row and in its name', async () => {
		if (!label) throw new Error('the recorded tree has no label');
		const assign: Intent = { type: 'label', articleIds: [1], labelId: label.id, assign: true };
		await enqueueIntent(assign);
		const treeReads = countTreeReads();
		const [row] = await withQueuedChanges([headline(1, { labels: [] })]);
		expect(row?.labels).toEqual([expect.objectContaining({ id: label.id, caption: label.title })]);
		const names = await intentNames([assign]);
		expect(names.titles.get(`feed:${label.id}`)).toBe(label.title);
		expect(treeReads()).toBe(2);
	});

	it('the offline status reads the tree when asked, not at a change of the outbox', async () => {
		vi.resetModules();
		const { offlineStatus } = await import('$lib/offline/offline-status.svelte');
		const treeReads = countTreeReads();
		await offlineStatus.refresh({ tree: false });
		expect(treeReads()).toBe(0);
		expect(offlineStatus.treeFetchedAt).toBeUndefined();
		// Asked for during an outbox-only read: the read after it takes the tree.
		await Promise.all([offlineStatus.refresh({ tree: false }), offlineStatus.refresh()]);
		expect(treeReads()).toBe(1);
		expect(offlineStatus.treeFetchedAt).toBe(1);
		// An outbox-only read keeps what the tree's last read found.
		await offlineStatus.refresh({ tree: false });
		expect(offlineStatus.treeFetchedAt).toBe(1);
		expect(treeReads()).toBe(1);
	});
});
