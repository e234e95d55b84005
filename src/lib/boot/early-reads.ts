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
} from '$lib/cache/cache-reads';
import type { ListKey } from '$lib/cache/cache-reads';
import type { StoredSession, StoredTree } from '$lib/db/schema';
import { loadSession } from '$lib/db/session';
import { afterNextPaint } from '$lib/perf/paint';

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
 * Background work waits at a gate while something the reader waits for is under way: held by each
 * such thing (`hold`, which returns its release; once is enough), passed (`passed`) once nothing
 * holds it, after the frame that paints what they waited for; a hold lapses by itself `limitMs`
 * after it was made. (Closures, not a class: this is on the first screen's path, whose budget
 * counts every byte, and a minifier shortens local names but not private fields.)
 */
function paintGate(limitMs: number): { hold(): () => void; passed(): Promise<void> } {
	let holds = 0;
	let waiters: (() => void)[] = [];
	/** Settles after the frame that followed the last release (a waiter then waits for it). */
	let painting = Promise.resolve();
	return {
		hold() {
			holds++;
			let held = true;
			// A lapse opens at once; a release after the frame that shows what was waited for.
			const release = (lapsed?: boolean): void => {
				if (!held) return;
				held = false;
				if (--holds) return;
				const waiting = waiters;
				waiters = [];
				painting = (lapsed ? Promise.resolve() : afterNextPaint()).then(() =>
					waiting.forEach((resolve) => resolve())
				);
			};
			setTimeout(release, limitMs, true);
			return () => release();
		},
		passed: () => (holds ? new Promise<void>((resolve) => waiters.push(resolve)) : painting)
	};
}

/**
 * The list a start opens on, until its first rows are painted (cached, or else the server's first
 * page): the start's other server calls — tree, counters, config — do not compete with that first
 * paint for the main thread, the database and the server. At most `FIRST_SCREEN_WAIT_MS`; open at
 * once when the start opened no list.
 */
export const FIRST_SCREEN_WAIT_MS = 500;
let firstScreenGate = paintGate(FIRST_SCREEN_WAIT_MS);
let firstScreenRelease: (() => void) | undefined;
/** False until the start has said whether it opens a list (hooks.client.ts's init). */
let firstScreenDecided = false;

function armFirstScreen(hold: boolean): void {
	firstScreenDecided = true;
	firstScreenRelease?.();
	firstScreenRelease = hold ? firstScreenGate.hold() : undefined;
}

/** After sign-in: the list the app lands on comes first, the tree's refresh after it. */
export function holdFirstScreen(): void {
	armFirstScreen(true);
}

/** Called when the first list's rows are on screen: from the cache, or the server's first page. */
export function firstScreenShown(): void {
	const release = firstScreenRelease;
	firstScreenRelease = undefined;
	release?.();
}

/**
 * Lists fetching their first rows (headlines.open): until they are shown, a sync starting
 * meanwhile waits (`afterListsShown`), so the reader's list never competes with background work
 * for the main thread, the database and the server — an app start on a phone lands on the
 * feed tree, and the sync would otherwise start just as the reader opens their first list.
 */
let listsGate = paintGate(FIRST_SCREEN_WAIT_MS);

/** A list's first rows are on their way; returns the function that says they are on screen (or the
 * list gave up). */
export function listOpening(): () => void {
	return listsGate.hold();
}

/** Settles once no list is fetching its first rows (`listOpening`). */
export function afterListsShown(): Promise<void> {
	return listsGate.passed();
}

export function afterFirstScreen(): Promise<void> {
	if (firstScreenDecided) return firstScreenGate.passed();
	// Asked by a module's top level, before the app's entry ran: init runs in the same task, right
	// after the modules are evaluated, so the gate is decided when the next task begins.
	return new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() =>
		firstScreenGate.passed()
	);
}

/** For tests: as before any start. */
export function resetFirstScreenForTests(): void {
	firstScreenDecided = false;
	firstScreenRelease = undefined;
	firstScreenGate = paintGate(FIRST_SCREEN_WAIT_MS);
	listsGate = paintGate(FIRST_SCREEN_WAIT_MS);
}
