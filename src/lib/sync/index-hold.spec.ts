/**
 * The search index takes a sync's articles in one batch once the sync's text is stored, never page
 * by page while the next page is being answered (db/index-queue.ts's holdIndexing; issue 28).
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { StoredArticle } from '$lib/db/schema';
import { ownCacheForTests } from '$support/own-cache';
import { setIndexSink } from '$lib/db/index-queue';
import { syncNow } from './engine';
import { syncServer } from '$support/sync-server';
import { recordedLevels } from '$support/fake-fetch';

// A page (the queue only hands over in one), whose idle time comes at once: without the hold,
// each page's rows would reach the index while the next page was still out.
vi.hoisted(() => {
	(globalThis as Record<string, unknown>).document = {};
	(globalThis as Record<string, unknown>).requestIdleCallback = (f: () => void) => setTimeout(f, 0);
});

beforeEach(async () => {
	await ownCacheForTests();
});
afterEach(() => setIndexSink(() => {}));

it('hands the index a first sync of three pages once, after its text is stored', async () => {
	const server = syncServer(recordedLevels[0]);
	server.arrive(450);
	const batches: number[][] = [];
	let handedOver: () => void = () => {};
	const arrived = new Promise<void>((resolve) => (handedOver = resolve));
	setIndexSink((added: StoredArticle[]) => {
		batches.push(added.map((a) => a.id));
		handedOver();
	});
	/** Batches the index had been handed when each page was written, and when the text was in. */
	const seen: number[] = [];
	await syncNow({
		client: server.client,
		account: 'reader@http://tt.example/api/',
		articleCount: 500,
		onProgress: ({ phase }) => {
			if (phase === 'new') seen.push(batches.length);
		},
		onSynced: () => {
			seen.push(batches.length);
		}
	});
	await arrived;
	expect(seen.length).toBeGreaterThanOrEqual(4);
	expect(seen.every((n) => n === 0)).toBe(true);
	expect(batches).toHaveLength(1);
	expect(new Set(batches[0]).size).toBe(450);
});
