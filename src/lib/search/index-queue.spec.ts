import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StoredArticle } from '$lib/db/schema';
import { headline } from '$support/factories';
import { holdIndexing, indexArticles, setIndexSink, unindexArticles } from '$lib/db/index-queue';

const stored = (id: number): StoredArticle => ({
	...headline(id),
	comments: '',
	hasContent: false,
	storedAt: 1,
	offline: false
});

describe('the index hooks', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => {
		vi.useRealTimers();
		vi.unstubAllGlobals();
	});

	it('queue changes, coalesced per article, for the page to take in idle time', () => {
		vi.stubGlobal('document', {});
		const sink = vi.fn();
		indexArticles([stored(1), stored(2)]);
		unindexArticles([2, 3]);
		indexArticles([stored(3)]);
		// Changes made before the page's side is connected are kept for it.
		setIndexSink(sink);
		expect(sink).not.toHaveBeenCalled();
		vi.runAllTimers();
		expect(sink).toHaveBeenCalledTimes(1);
		const [added, removed] = sink.mock.calls[0] as [StoredArticle[], number[]];
		expect(added.map((a) => a.id)).toEqual([1, 3]);
		expect(removed).toEqual([2]);
	});

	it('keep what is queued under a hold, and hand it over in one batch when the last hold ends', () => {
		vi.stubGlobal('document', {});
		const sink = vi.fn();
		setIndexSink(sink);
		// Scheduled before the hold: held all the same.
		indexArticles([stored(10)]);
		const first = holdIndexing();
		const second = holdIndexing();
		indexArticles([stored(11)]);
		vi.runAllTimers();
		expect(sink).not.toHaveBeenCalled();
		first();
		first(); // a second call releases nothing more
		indexArticles([stored(12)]);
		vi.runAllTimers();
		expect(sink).not.toHaveBeenCalled();
		second();
		vi.runAllTimers();
		expect(sink).toHaveBeenCalledTimes(1);
		expect((sink.mock.calls[0] as [StoredArticle[]])[0].map((a) => a.id)).toEqual([10, 11, 12]);
	});

	it('do nothing in the service worker, which has no document (the page mends the index)', () => {
		const sink = vi.fn();
		setIndexSink(sink);
		indexArticles([stored(4)]);
		unindexArticles([5]);
		vi.runAllTimers();
		expect(sink).not.toHaveBeenCalled();
	});
});
