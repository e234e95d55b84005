import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ListKey } from '$lib/cache/cache-reads';
import { storeList } from '$lib/cache/write';
import { saveSession } from '$lib/db/session';
import { headline } from '$support/factories';
import {
	afterFirstScreen,
	afterListsShown,
	FIRST_SCREEN_WAIT_MS,
	firstScreenShown,
	resetFirstScreenForTests,
	holdFirstScreen,
	listOpening,
	startEarlyReads,
	takeEarlyList,
	takeEarlySession,
	takeEarlyTree
} from './early-reads';
import { ownCacheForTests } from '$support/own-cache';

const key: ListKey = { feedId: -4, isCat: false, viewMode: 'adaptive', orderBy: '', search: '' };

afterEach(() => {
	vi.useRealTimers();
});

/** Settled (true) or still pending (false) after the queued microtasks and I/O have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
	let done = false;
	void promise.then(() => (done = true));
	await new Promise((resolve) => setImmediate(resolve));
	return done;
}

describe('early reads', () => {
	it('reads the session, the tree and the start list once, for whoever asks first', async () => {
		await saveSession({
			apiUrl: '/tt-rss/api/',
			user: 'reader',
			sessionId: 'sid',
			apiLevel: 15,
			stayingSignedIn: false,
			singleUser: false,
			signedInAt: 1
		});
		await storeList(key, 0, [headline(1), headline(2)], true);
		startEarlyReads(key);
		expect((await takeEarlySession())?.user).toBe('reader');
		expect(takeEarlySession()).toBeUndefined();
		expect(await takeEarlyTree()).toBeUndefined();
		expect(takeEarlyTree()).toBeUndefined();
		// Another list reads afresh, and the start list's read is dropped with it.
		expect(takeEarlyList({ ...key, viewMode: 'unread' })).toBeUndefined();
		expect(takeEarlyList(key)).toBeUndefined();
	});

	it('gives the start list to the list that matches it', async () => {
		await ownCacheForTests();
		await storeList(key, 0, [headline(1), headline(2)], true);
		startEarlyReads(key);
		const read = takeEarlyList({ ...key });
		expect((await read)?.headlines.map((h) => h.id)).toEqual([1, 2]);
		expect(takeEarlyList(key)).toBeUndefined();
	});

	it('lets a failed session read reach its taker without an unhandled rejection', async () => {
		globalThis.indexedDB = undefined as unknown as IDBFactory;
		startEarlyReads(undefined);
		await expect(takeEarlySession()).rejects.toBeDefined();
	});
});

describe('first screen gate', () => {
	it('is open at once when the start opened no list', async () => {
		startEarlyReads(undefined);
		expect(await settled(afterFirstScreen())).toBe(true);
	});

	it('holds until the first rows are shown', async () => {
		startEarlyReads(key);
		const gate = afterFirstScreen();
		expect(await settled(gate)).toBe(false);
		firstScreenShown();
		// After the frame that paints them (perf/paint.ts): with no frames here, the next task.
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(await settled(gate)).toBe(true);
	});

	it('asked before the start decided, follows what the start decides in the same task', async () => {
		vi.useFakeTimers();
		resetFirstScreenForTests();
		let done = false;
		void afterFirstScreen().then(() => (done = true));
		startEarlyReads(key);
		await vi.advanceTimersByTimeAsync(1);
		expect(done).toBe(false);
		firstScreenShown();
		await vi.advanceTimersByTimeAsync(0);
		expect(done).toBe(true);
	});

	it('asked before a start that never comes, opens after the current task', async () => {
		vi.useFakeTimers();
		resetFirstScreenForTests();
		let done = false;
		void afterFirstScreen().then(() => (done = true));
		await Promise.resolve();
		expect(done).toBe(false);
		await vi.advanceTimersByTimeAsync(0);
		expect(done).toBe(true);
	});

	it('never holds longer than its limit', async () => {
		vi.useFakeTimers();
		holdFirstScreen();
		const gate = afterFirstScreen();
		let done = false;
		void gate.then(() => (done = true));
		await vi.advanceTimersByTimeAsync(FIRST_SCREEN_WAIT_MS - 1);
		expect(done).toBe(false);
		await vi.advanceTimersByTimeAsync(1);
		expect(done).toBe(true);
	});
});

describe('lists opening', () => {
	beforeEach(() => resetFirstScreenForTests());

	it('let background work go at once when no list is opening', async () => {
		expect(await settled(afterListsShown())).toBe(true);
	});

	it('hold it until every opening list has its rows shown, after their frame', async () => {
		const first = listOpening();
		const second = listOpening();
		const gate = afterListsShown();
		first();
		first(); // once is enough: a second call does not count for the other list
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(await settled(gate)).toBe(false);
		second();
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(await settled(gate)).toBe(true);
	});

	it('never hold it longer than the first screen’s limit', async () => {
		vi.useFakeTimers();
		listOpening();
		let done = false;
		void afterListsShown().then(() => (done = true));
		await vi.advanceTimersByTimeAsync(FIRST_SCREEN_WAIT_MS - 1);
		expect(done).toBe(false);
		await vi.advanceTimersByTimeAsync(1);
		expect(done).toBe(true);
	});

	it('count the limit from the list’s start, not from when the work asked', async () => {
		vi.useFakeTimers();
		listOpening();
		await vi.advanceTimersByTimeAsync(FIRST_SCREEN_WAIT_MS - 100);
		let done = false;
		void afterListsShown().then(() => (done = true));
		await vi.advanceTimersByTimeAsync(99);
		expect(done).toBe(false);
		await vi.advanceTimersByTimeAsync(1);
		expect(done).toBe(true);
	});

	it('make work that asks between the rows and their frame wait for that frame', async () => {
		vi.useFakeTimers();
		const shown = listOpening();
		shown();
		let done = false;
		void afterListsShown().then(() => (done = true));
		await Promise.resolve();
		expect(done).toBe(false);
		await vi.advanceTimersByTimeAsync(0);
		expect(done).toBe(true);
	});
});
