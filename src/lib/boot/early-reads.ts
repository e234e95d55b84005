/**
 * The reads every start needs from IndexedDB — the kept session, the cached feed tree and the
 * cached rows of the list in the address bar — begun as soon as the app's entry runs
 * (hooks.client.ts). Without this they start one after another as the layout, the session and the
 * list route mount, each waiting for the code of the next screen part to arrive first.
 *
 * Each read is taken once, by the code that would otherwise have made it; a later caller (another
 * list, a reload of the tree) reads afresh.
 */
import {
	cachedList,
	cachedTree,
	FIRST_SCREEN_ROWS,
	listKeyString,
	type CachedList
} from '$lib/cache';
import type { ListKey } from '$lib/cache';
import type { StoredSession, StoredTree } from '$lib/db/schema';
import { loadSession } from '$lib/db/session';
import { runAfterNextPaint } from '$lib/perf/paint';

let session: Promise<StoredSession | undefined> | undefined;
let tree: Promise<StoredTree | undefined> | undefined;
let list: { key: string; read: Promise<CachedList | undefined> } | undefined;

/** A promise nobody may take must not report an unhandled rejection; the taker still sees it. */
function quiet<T>(promise: Promise<T>): Promise<T> {
	promise.catch(() => {});
	return promise;
}

export function startEarlyReads(listKey: ListKey | undefined): void {
	armFirstScreen(listKey !== undefined);
	session = quiet(loadSession());
	tree = cachedTree();
	list = listKey
		? { key: listKeyString(listKey), read: cachedList(listKey, { first: FIRST_SCREEN_ROWS }) }
		: undefined;
}

export function takeEarlySession(): Promise<StoredSession | undefined> | undefined {
	const taken = session;
	session = undefined;
	return taken;
}

export function takeEarlyTree(): Promise<StoredTree | undefined> | undefined {
	const taken = tree;
	tree = undefined;
	return taken;
}

/** The early read of this list, if the start read this one; any other list reads afresh. */
export function takeEarlyList(key: ListKey): Promise<CachedList | undefined> | undefined {
	const taken = list?.key === listKeyString(key) ? list.read : undefined;
	list = undefined;
	return taken;
}

/**
 * Settles once the list a start opened on has painted its first rows (cached, or else the
 * server's first page), so the start's other server calls — tree, counters, config — do not compete
 * with that first paint for the main thread, the database and the server. At most `FIRST_SCREEN_WAIT_MS`; at once when
 * the start opened no list.
 */
export const FIRST_SCREEN_WAIT_MS = 500;
let firstScreenDone: (() => void) | undefined;
/** Undefined until the start has said whether it opens a list (hooks.client.ts's init). */
let firstScreen: Promise<void> | undefined;

function armFirstScreen(hold: boolean): void {
	if (!hold) {
		firstScreen = Promise.resolve();
		firstScreenDone = undefined;
		return;
	}
	firstScreen = new Promise<void>((resolve) => {
		firstScreenDone = resolve;
		setTimeout(resolve, FIRST_SCREEN_WAIT_MS);
	});
}

/** After sign-in: the list the app lands on comes first, the tree's refresh after it. */
export function holdFirstScreen(): void {
	armFirstScreen(true);
}

/** Called when the first list's rows are on screen: from the cache, or the server's first page. */
export function firstScreenShown(): void {
	const done = firstScreenDone;
	firstScreenDone = undefined;
	if (!done) return;
	// After the frame that paints them, not before.
	runAfterNextPaint(done);
}

/** Lists fetching their first rows now (`listOpening`), and who waits for them (`afterListsShown`). */
let listsOpening = 0;
let listsShownWaiters: (() => void)[] = [];

/**
 * A list's first rows are on their way (headlines.open): until they are shown, a sync starting
 * meanwhile waits (`afterListsShown`), so the reader's list never competes with background work
 * for the main thread, the database and the server — an app start on a phone lands on the
 * feed tree, and the sync would otherwise start just as the reader opens their first list.
 * Returns the function that says the rows are on screen (or the list gave up); once is enough.
 */
export function listOpening(): () => void {
	listsOpening++;
	let open = true;
	return () => {
		if (!open) return;
		open = false;
		if (--listsOpening > 0) return;
		const waiting = listsShownWaiters;
		listsShownWaiters = [];
		// After the frame that paints them, not before.
		if (waiting.length > 0) runAfterNextPaint(() => waiting.forEach((resolve) => resolve()));
	};
}

/** Settles once no list is fetching its first rows (`listOpening`); at most FIRST_SCREEN_WAIT_MS. */
export function afterListsShown(): Promise<void> {
	if (listsOpening === 0) return Promise.resolve();
	return new Promise<void>((resolve) => {
		listsShownWaiters.push(resolve);
		setTimeout(resolve, FIRST_SCREEN_WAIT_MS);
	});
}

export function afterFirstScreen(): Promise<void> {
	if (firstScreen) return firstScreen;
	// Asked by a module's top level, before the app's entry ran: init runs in the same task, right
	// after the modules are evaluated, so the gate is decided when the next task begins.
	return new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => firstScreen);
}

/** For tests: as before any start. */
export function resetFirstScreenForTests(): void {
	firstScreen = undefined;
	firstScreenDone = undefined;
	listsOpening = 0;
	listsShownWaiters = [];
}
